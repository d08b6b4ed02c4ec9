import { describe, expect, it } from 'vitest';
import { isInsurerStaff, isProviderAdmin, type SessionViewer, type V1SessionUser, type V2SessionUser } from './session';

const v1 = (profile: string[]): SessionViewer => ({ generation: 'v1', user: { profile } as V1SessionUser });
const v2 = (profile: string): SessionViewer => ({ generation: 'v2', user: { profile } as V2SessionUser });

describe('the insurer’s staff (decision 055)', () => {
  // Issue 27: the legacy administrators' group is a partner's too (admin@legado belongs to Horizonte):
  // dating a cancellation back is the insurer's ADMIN's alone.
  it.each([
    [v2('ADMIN'), true],
    [v2('PARCEIRO_ADMIN'), false],
    [v2('PARCEIRO'), false],
    [v2('SUBSTABELECIDO'), false],
    [v1(['ADMINISTRADOR']), false],
    [v1(['VENDEDOR']), false],
  ])('%j → %s', (viewer, staff) => {
    expect(isInsurerStaff(viewer)).toBe(staff);
  });

  it('the demo mailbox still opens to both generations’ administrators (decision 028)', () => {
    expect(isProviderAdmin({ v1: { profile: ['ADMINISTRADOR'] } as V1SessionUser })).toBe(true);
    expect(isProviderAdmin({ v2: { profile: 'ADMIN' } as V2SessionUser })).toBe(true);
    expect(isProviderAdmin({ v2: { profile: 'PARCEIRO_ADMIN' } as V2SessionUser })).toBe(false);
  });
});
