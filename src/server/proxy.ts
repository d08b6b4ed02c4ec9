import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Who is on the other side of a request when the portal runs behind reverse proxies
 * (docs/decisions/021-public-origin-and-proxies.md): the client's address, whether the browser speaks
 * https, and which origins a state-changing request may come from. X-Forwarded-* headers are
 * believed only from the proxies listed in TRUST_PROXY; anyone else could write them.
 */

/** What the rest of the request pipeline needs to know about the client, computed once per request. */
export interface ClientInfo {
  /** The client's address: the socket peer, or the address trusted proxies forwarded for. */
  ip: string;
  /** The browser reached the portal over https (directly, or through a trusted TLS-terminating proxy). */
  https: boolean;
  /** Origins a state-changing request may come from (compared with its Origin header). */
  allowedOrigins: readonly string[];
}

/** The TRUST_PROXY list: addresses and CIDR ranges of the proxies whose X-Forwarded-* headers are believed. */
export interface TrustedProxies {
  /** The list as configured, for messages and logs. */
  readonly entries: readonly string[];
  has(address: string): boolean;
}

/** Names for the ranges proxies usually sit in (the same names Express's proxy-addr uses). */
const NAMED_RANGES: Record<string, readonly string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1, what a dual-stack socket reports) as plain IPv4. */
export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped && isIPv4(mapped[1]!) ? mapped[1]! : address.toLowerCase();
}

const family = (address: string) => (isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined);

/**
 * Parses TRUST_PROXY: entries separated by commas or spaces, each an address (`127.0.0.1`, `::1`),
 * a CIDR range (`10.0.0.0/8`, `fd00::/8`) or a name (`loopback`, `linklocal`, `uniquelocal`).
 * Empty trusts no one. Throws with the offending entry, so a typo stops the server.
 */
export function parseTrustedProxies(value: string): TrustedProxies {
  const entries = value
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
  const list = new BlockList();
  for (const entry of entries) {
    for (const range of NAMED_RANGES[entry.toLowerCase()] ?? [entry]) {
      const [address = '', prefix] = range.split('/');
      const kind = family(address);
      const bits = prefix === undefined ? undefined : Number(prefix);
      const maxBits = kind === 'ipv4' ? 32 : 128;
      if (!kind || (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || bits! > maxBits))) {
        throw new Error(`"${entry}" não é um endereço IP, uma faixa CIDR nem um dos nomes ${Object.keys(NAMED_RANGES).join(', ')}`);
      }
      if (bits === undefined) list.addAddress(address, kind);
      else list.addSubnet(address, bits, kind);
    }
  }
  return {
    entries,
    has(address) {
      const normalized = normalizeAddress(address);
      const kind = family(normalized);
      try {
        return kind !== undefined && list.check(normalized, kind);
      } catch {
        return false; // an address node:net recognises but BlockList refuses is no proxy of ours
      }
    },
  };
}

/** One hop of X-Forwarded-For as an address: ports (`1.2.3.4:5678`, `[::1]:80`) dropped; undefined when it is not one. */
function hopAddress(hop: string): string | undefined {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  const withoutPort = bracketed ? bracketed[1]! : /^[\d.]+:\d+$/.test(hop) ? hop.slice(0, hop.lastIndexOf(':')) : hop;
  const address = normalizeAddress(withoutPort);
  return family(address) ? address : undefined;
}

const listOf = (header: string | null) =>
  (header ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);

/** `https://Host[:port]` as the browser writes it in Origin (lower case, default port dropped); undefined when not a host. */
function originOf(scheme: string, host: string): string | undefined {
  if (!/^(?:[a-z0-9_.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i.test(host)) return undefined;
  return URL.parse(`${scheme}://${host}`)?.origin;
}

export interface RequestSide {
  /** The request URL as the server received it (scheme of the socket, host from the Host header). */
  url: URL;
  headers: Headers;
  /** The socket peer's address (Astro's `clientAddress`). */
  peer: string;
}

export interface ProxySettings {
  /** PUBLIC_URL's origin (as config.ts normalises it), when configured. */
  publicUrl?: string;
  trustedProxies: TrustedProxies;
}

/**
 * The client as the portal should see it. Forwarded headers count only when the socket peer is a
 * trusted proxy: X-Forwarded-For is read right to left, each trusted hop skipped, and the first
 * untrusted address is the client (a client may write anything at the left end; only what the
 * trusted proxies appended is sure). X-Forwarded-Proto and -Host take their first value, the one
 * the outermost proxy — the one the browser talked to — set.
 */
export function resolveClient({ url, headers, peer }: RequestSide, { publicUrl: publicOrigin, trustedProxies }: ProxySettings): ClientInfo {
  const peerAddress = normalizeAddress(peer);
  const fromTrustedProxy = trustedProxies.has(peerAddress);

  let ip = peerAddress;
  if (fromTrustedProxy) {
    for (const hop of listOf(headers.get('x-forwarded-for')).reverse()) {
      const address = hopAddress(hop);
      // A hop that is not an address: the chain cannot be followed further than the last trusted proxy.
      if (!address) break;
      ip = address;
      if (!trustedProxies.has(address)) break;
    }
  }

  const forwardedScheme = fromTrustedProxy ? listOf(headers.get('x-forwarded-proto'))[0]?.toLowerCase() : undefined;
  const scheme = forwardedScheme === 'https' || forwardedScheme === 'http' ? forwardedScheme : undefined;
  const forwardedHost = fromTrustedProxy ? listOf(headers.get('x-forwarded-host'))[0] : undefined;
  // A request addressed to an https PUBLIC_URL came through TLS, even when no trusted proxy says so.
  const addressedToHttpsPublicOrigin = publicOrigin?.startsWith('https:') === true && originOf('https', url.host) === publicOrigin;
  const https = scheme ? scheme === 'https' : url.protocol === 'https:' || addressedToHttpsPublicOrigin;

  const forwardedOrigin = scheme || forwardedHost ? originOf(scheme ?? url.protocol.slice(0, -1), forwardedHost ?? url.host) : undefined;
  // The address as the browser used it: once it speaks https, its http twin is no origin of ours.
  const ownOrigin = https ? originOf('https', url.host) : url.origin;
  const allowedOrigins = [...new Set([publicOrigin, forwardedOrigin, ownOrigin].filter((origin): origin is string => Boolean(origin)))];
  return { ip, https, allowedOrigins };
}
