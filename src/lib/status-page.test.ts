import { describe, expect, it } from 'vitest';
import { statusFrame, statusText } from './status-page';

describe('statusFrame: the frame and the way home of the 403 and 404 pages', () => {
  const none = { v1: false, v2: false };
  const v1 = { v1: true, v2: false };
  const v2 = { v1: false, v2: true };
  const both = { v1: true, v2: true };
  it.each([
    // signed out: SPEC §2's way home, in the public frame
    ['/v2/x', none, { frame: 'public', homeHref: '/v2/login' }],
    ['/v2', none, { frame: 'public', homeHref: '/v2/login' }],
    ['/x', none, { frame: 'public', homeHref: '/' }],
    ['/v2x', none, { frame: 'public', homeHref: '/' }],
    // signed in to the generation of the address: the portal frame and the session's home
    ['/v2/x', v2, { frame: 'portal', generation: 'v2', homeHref: '/v2/home' }],
    ['/v2/ofertas', both, { frame: 'portal', generation: 'v2', homeHref: '/v2/home' }],
    ['/x', v1, { frame: 'portal', generation: 'v1', homeHref: '/home' }],
    ['/404', both, { frame: 'portal', generation: 'v1', homeHref: '/home' }],
    // signed in to the other generation only: that session does not open this address's pages
    ['/x', v2, { frame: 'public', homeHref: '/' }],
    ['/v2/x', v1, { frame: 'public', homeHref: '/v2/login' }],
  ] as const)('%s signed in %j → %j', (path, signedIn, frame) => expect(statusFrame(path, signedIn)).toEqual(frame));
});

describe('statusText', () => {
  it('tells the insured whose policy link no longer opens why, and what to do', () => {
    expect(statusText(404, '/apolice-digital/abc').heading).toBe('Este link da apólice não está mais disponível.');
    expect(statusText(404, '/v2/apolices/1').heading).toBe('Desculpe, esta página não está disponível.');
    expect(statusText(403, '/apolice-digital/abc').heading).toBe('Você não tem permissão para acessar esta página.');
  });
});
