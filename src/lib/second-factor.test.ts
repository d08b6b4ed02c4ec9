import { describe, expect, it } from 'vitest';
import { safeParse } from 'zod/v4/core';
import {
  formatRecoveryCode,
  normalizeRecoveryCode,
  recoveryCodeField,
  recoveryCodeFrom,
  secondFactorRequired,
  totpCodeField,
} from './second-factor';

describe('secondFactorRequired (the policy)', () => {
  it.each([
    [{ generation: 'v2', profile: 'admin', groups: [] }, true],
    [{ generation: 'v2', profile: 'parceiro_admin', groups: [] }, true],
    [{ generation: 'v2', profile: 'PARCEIRO_ADMIN', groups: [] }, true],
    [{ generation: 'v2', profile: 'parceiro', groups: [] }, false],
    [{ generation: 'v2', profile: 'substabelecido', groups: [] }, false],
    [{ generation: 'v2', profile: null, groups: [] }, false],
    [{ generation: 'v1', profile: null, groups: ['ADMINISTRADOR'] }, true],
    [{ generation: 'v1', profile: null, groups: ['VENDEDOR', 'ADMINISTRADOR'] }, true],
    [{ generation: 'v1', profile: null, groups: ['GESTOR'] }, false],
    // A legacy user is judged by groups only, whatever a stray profile column says.
    [{ generation: 'v1', profile: 'admin', groups: ['VENDEDOR'] }, false],
  ] as const)('%o → %s', (subject, required) => {
    expect(secondFactorRequired({ ...subject, groups: [...subject.groups] })).toBe(required);
  });
});

describe('recovery codes', () => {
  it('are 12 characters of an alphabet without look-alikes, shown in three groups of four', () => {
    const code = recoveryCodeFrom(new Uint8Array(Array.from({ length: 12 }, (_, i) => i * 21)));
    expect(code).toMatch(/^[a-km-np-z2-9]{12}$/);
    expect(formatRecoveryCode(code)).toMatch(/^.{4}-.{4}-.{4}$/);
  });

  it('are read however they are typed: capitals, dashes and spaces', () => {
    expect(normalizeRecoveryCode(' ABCD-efgh 2345 ')).toBe('abcdefgh2345');
    expect(safeParse(recoveryCodeField, 'ABCD-EFGH-2345')).toMatchObject({ success: true, data: 'abcdefgh2345' });
    for (const wrong of ['', 'abcd-efgh', 'abcd-efgh-23456', 'abcd-efgh-234o', 'abcd-efgh-2341'])
      expect(safeParse(recoveryCodeField, wrong).success, wrong).toBe(false);
  });
});

describe('the TOTP code field', () => {
  it('takes six digits, with the spaces an app shows between groups', () => {
    expect(safeParse(totpCodeField, '123 456')).toMatchObject({ success: true, data: '123456' });
    for (const wrong of ['12345', '1234567', 'abcdef', '12345a', '１２３４５６'])
      expect(safeParse(totpCodeField, wrong).success, wrong).toBe(false);
  });
});
