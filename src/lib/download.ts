/**
 * A file the portal hands over: what a service returns for a download, made a `Response` once at the
 * edge (server/api/download.ts), so every download carries the same headers and name encoding.
 */
export interface Download {
  /** The file's bytes, or a stream of them (a report, a CSV made while it is sent). */
  body: Uint8Array | ReadableStream<Uint8Array> | string;
  /** The name it is saved (or shown) under: any text, encoded by `contentDisposition`. */
  fileName: string;
  /** Its media type as found when it was received or made — never sniffed by the browser. */
  type: string;
  /** Its length in bytes, when known before sending. */
  size?: number;
  /**
   * Shown in place rather than saved: only the PDFs the portal renders itself. A file someone sent
   * is never inline (a PDF opened in the portal's origin could run its own script).
   */
  inline?: boolean;
}

/** `content-disposition`: an ASCII fallback and the UTF-8 name (RFC 6266, RFC 8187). */
export function contentDisposition(name: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const ascii = name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const utf8 = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}
