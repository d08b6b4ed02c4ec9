import { describe, expect, it } from 'vitest';
import { requestScheme } from './shared-page';

// The scheme a shared page's copy is kept under follows the pipeline's proxy rule (server/proxy.ts):
// with no trusted proxy configured, as in tests, a forwarded scheme counts for nothing.
const request = (headers: Record<string, string>, socket: { remoteAddress?: string; encrypted?: boolean } = {}) => ({
  url: '/termo-de-uso',
  headers: { host: 'portal.exemplo', ...headers },
  socket: { remoteAddress: '203.0.113.9', ...socket },
});

describe('requestScheme', () => {
  it('ignores an X-Forwarded-Proto from a peer that is no trusted proxy, and remembers the answer', () => {
    expect(requestScheme(request({ 'x-forwarded-proto': 'https' }))).toBe('http');
    expect(requestScheme(request({ 'x-forwarded-proto': 'https' }))).toBe('http');
    expect(requestScheme(request({}))).toBe('http');
  });

  it('says https for a connection that is itself encrypted', () => {
    expect(requestScheme(request({}, { encrypted: true }))).toBe('https');
  });
});
