import { describe, expect, it } from 'vitest';
import { normalizeAddress, parseTrustedProxies, resolveClient } from './proxy';

const none = parseTrustedProxies('');
const local = parseTrustedProxies('127.0.0.1');

/** A request as the node adapter builds it: http (TLS ends before us), host from the Host header. */
const request = (headers: Record<string, string> = {}, { peer = '127.0.0.1', url = 'http://portal.example.com/v2/login' } = {}) => ({
  url: new URL(url),
  headers: new Headers(headers),
  peer,
});

describe('parseTrustedProxies', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1', true],
    ['127.0.0.1', '127.0.0.2', false],
    ['127.0.0.1', '::ffff:127.0.0.1', true], // what a dual-stack socket reports
    ['10.0.0.0/8', '10.200.3.4', true],
    ['10.0.0.0/8', '11.0.0.1', false],
    ['10.0.0.0/8, 192.168.1.10', '192.168.1.10', true],
    ['10.0.0.0/8 192.168.1.10', '192.168.1.11', false],
    ['loopback', '127.9.9.9', true],
    ['loopback', '::1', true],
    ['loopback', '10.0.0.1', false],
    ['uniquelocal', '172.20.1.1', true],
    ['uniquelocal', 'fd12::1', true],
    ['linklocal', '169.254.1.1', true],
    ['fd00::/8', 'fd00::5', true],
    ['fd00::/8', 'fe00::5', false],
    ['', '127.0.0.1', false],
    ['127.0.0.1', 'not-an-address', false],
    ['127.0.0.1', '', false],
  ])('TRUST_PROXY=%j trusts %s: %s', (value, address, trusted) => expect(parseTrustedProxies(value).has(address)).toBe(trusted));

  it.each(['*', 'true', 'proxy.internal', '10.0.0.0/33', '::/129', '10.0.0.0/x', '300.1.1.1'])('refuses %j, naming it', (value) => {
    expect(() => parseTrustedProxies(value)).toThrow(value);
  });

  it('keeps the entries as written, for messages', () => {
    expect(parseTrustedProxies(' 10.0.0.0/8 ,loopback ').entries).toEqual(['10.0.0.0/8', 'loopback']);
  });
});

describe('normalizeAddress', () => {
  it.each([
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['::FFFF:127.0.0.1', '127.0.0.1'],
    ['2001:DB8::1', '2001:db8::1'],
    ['10.1.2.3', '10.1.2.3'],
  ])('%s → %s', (input, output) => expect(normalizeAddress(input)).toBe(output));
});

describe('resolveClient: the client address', () => {
  const ipOf = (headers: Record<string, string>, peer: string, trusted = local) =>
    resolveClient(request(headers, { peer }), { trustedProxies: trusted }).ip;

  it('is the socket peer when nobody is trusted, whatever X-Forwarded-For says', () => {
    expect(ipOf({ 'x-forwarded-for': '203.0.113.9' }, '198.51.100.1', none)).toBe('198.51.100.1');
    expect(ipOf({ 'x-forwarded-for': '203.0.113.9' }, '127.0.0.1', none)).toBe('127.0.0.1');
  });

  it('is the socket peer when the peer is not a trusted proxy', () => {
    expect(ipOf({ 'x-forwarded-for': '203.0.113.9' }, '198.51.100.1')).toBe('198.51.100.1');
  });

  it('is the address a trusted proxy appended', () => {
    expect(ipOf({ 'x-forwarded-for': '203.0.113.9' }, '127.0.0.1')).toBe('203.0.113.9');
    expect(ipOf({ 'x-forwarded-for': '203.0.113.9' }, '::ffff:127.0.0.1')).toBe('203.0.113.9');
  });

  it('reads right to left: what the client wrote at the left end is not believed', () => {
    // The client sent "X-Forwarded-For: 10.9.9.9"; the trusted proxy appended the address it saw.
    expect(ipOf({ 'x-forwarded-for': '10.9.9.9, 203.0.113.9' }, '127.0.0.1')).toBe('203.0.113.9');
  });

  it('skips every trusted hop of a chain of proxies', () => {
    const chain = parseTrustedProxies('127.0.0.1, 10.0.0.0/8');
    expect(ipOf({ 'x-forwarded-for': '1.1.1.1, 203.0.113.9, 10.0.0.7, 10.0.0.8' }, '127.0.0.1', chain)).toBe('203.0.113.9');
    // Repeated headers are one list.
    const headers = new Headers();
    headers.append('x-forwarded-for', '203.0.113.9');
    headers.append('x-forwarded-for', '10.0.0.7');
    expect(resolveClient({ url: new URL('http://x/'), headers, peer: '127.0.0.1' }, { trustedProxies: chain }).ip).toBe('203.0.113.9');
  });

  it('is the leftmost address when every hop is trusted', () => {
    expect(ipOf({ 'x-forwarded-for': '127.0.0.1' }, '127.0.0.1')).toBe('127.0.0.1');
  });

  it('stops at a hop that is not an address, on the last trusted proxy', () => {
    expect(ipOf({ 'x-forwarded-for': '203.0.113.9, unknown' }, '127.0.0.1')).toBe('127.0.0.1');
    expect(ipOf({ 'x-forwarded-for': '203.0.113.9, 127.0.0.1.5' }, '127.0.0.1')).toBe('127.0.0.1');
  });

  it('drops ports and brackets some proxies write', () => {
    expect(ipOf({ 'x-forwarded-for': '203.0.113.9:51234' }, '127.0.0.1')).toBe('203.0.113.9');
    expect(ipOf({ 'x-forwarded-for': '[2001:db8::7]:443' }, '127.0.0.1')).toBe('2001:db8::7');
    expect(ipOf({ 'x-forwarded-for': '2001:db8::7' }, '127.0.0.1')).toBe('2001:db8::7');
  });

  it('is the peer when a trusted proxy sends no X-Forwarded-For', () => {
    expect(ipOf({}, '127.0.0.1')).toBe('127.0.0.1');
  });
});

describe('resolveClient: https and the allowed origins', () => {
  const behindProxy = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'portal.example.com', 'x-forwarded-for': '203.0.113.9' };

  it('without proxy or PUBLIC_URL: the request itself, plain http', () => {
    expect(resolveClient(request(), { trustedProxies: none })).toEqual({
      ip: '127.0.0.1',
      https: false,
      allowedOrigins: ['http://portal.example.com'],
    });
  });

  it('behind a trusted TLS proxy: https, and the forwarded origin may post', () => {
    const client = resolveClient(request(behindProxy, { url: 'http://127.0.0.1:4321/v2/login' }), { trustedProxies: local });
    expect(client.https).toBe(true);
    // The internal address is the browser's no more: its http origin may not post.
    expect(client.allowedOrigins).toEqual(['https://portal.example.com', 'https://127.0.0.1:4321']);
  });

  it('believes no X-Forwarded-Proto or -Host from an untrusted peer', () => {
    const client = resolveClient(request(behindProxy, { peer: '198.51.100.1' }), { trustedProxies: local });
    expect(client).toEqual({ ip: '198.51.100.1', https: false, allowedOrigins: ['http://portal.example.com'] });
  });

  it('a trusted proxy without X-Forwarded-Host: its scheme with the Host header, and not the http twin', () => {
    const client = resolveClient(request({ 'x-forwarded-proto': 'https' }), { trustedProxies: local });
    expect(client.https).toBe(true);
    expect(client.allowedOrigins).toEqual(['https://portal.example.com']);
  });

  it("takes the outermost proxy's scheme and host (the first value)", () => {
    const client = resolveClient(request({ 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'portal.example.com, interno:8080' }), {
      trustedProxies: local,
    });
    expect(client.https).toBe(true);
    expect(client.allowedOrigins[0]).toBe('https://portal.example.com');
  });

  it('a trusted proxy that says http is believed over an https PUBLIC_URL', () => {
    const client = resolveClient(request({ 'x-forwarded-proto': 'http' }), {
      trustedProxies: local,
      publicUrl: 'https://portal.example.com',
    });
    expect(client.https).toBe(false);
  });

  it('ignores a forwarded scheme that is neither http nor https, and a forwarded host that is not a host', () => {
    const client = resolveClient(request({ 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil.example/path' }), {
      trustedProxies: local,
    });
    expect(client).toEqual({ ip: '127.0.0.1', https: false, allowedOrigins: ['http://portal.example.com'] });
  });

  it('PUBLIC_URL is always an allowed origin; a request addressed to an https one is https', () => {
    const settings = { trustedProxies: none, publicUrl: 'https://portal.example.com' };
    expect(resolveClient(request(), settings)).toEqual({
      ip: '127.0.0.1',
      https: true,
      allowedOrigins: ['https://portal.example.com'],
    });
    // Reached on its internal address: not the public name, so no https is assumed.
    const internal = resolveClient(request({}, { url: 'http://10.0.0.5:4321/' }), settings);
    expect(internal).toEqual({ ip: '127.0.0.1', https: false, allowedOrigins: ['https://portal.example.com', 'http://10.0.0.5:4321'] });
  });

  it('writes origins as browsers do: lower case, default port dropped', () => {
    const client = resolveClient(request({ 'x-forwarded-proto': 'HTTPS', 'x-forwarded-host': 'Portal.Example.COM:443' }), {
      trustedProxies: local,
    });
    expect(client.allowedOrigins[0]).toBe('https://portal.example.com');
    expect(
      resolveClient(request({}, { url: 'http://portal.example.com:443/' }), {
        trustedProxies: none,
        publicUrl: 'https://portal.example.com',
      }).https,
    ).toBe(true);
  });
});
