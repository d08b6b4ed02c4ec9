import { Readable } from 'node:stream';
import { contentDisposition, type Download } from '../../lib/download';

/**
 * A download as the browser gets it, the one place its headers are written: saved under its name
 * (or shown in place, for the PDFs the portal renders), its type as found and not sniffed again, and
 * kept by no cache on the way — every file here holds someone's data and is made for one viewer.
 */
export function downloadResponse({ body, fileName, type, size, inline = false }: Download): Response {
  const headers = new Headers({
    'content-type': type,
    'content-disposition': contentDisposition(fileName, inline ? 'inline' : 'attachment'),
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  });
  if (size !== undefined) headers.set('content-length', String(size));
  return new Response(body as BodyInit, { headers });
}

/** A PDF the portal rendered, shown in place. */
export const pdfResponse = (bytes: Uint8Array, fileName: string): Response =>
  downloadResponse({ body: bytes, fileName, type: 'application/pdf', inline: true });

/** A CSV made for the viewer (UTF-8, as lib/csv.ts writes it), whole or streamed while it is read from the database. */
export const csvResponse = (body: string | Readable, fileName: string): Response =>
  downloadResponse({
    body: typeof body === 'string' ? body : (Readable.toWeb(body) as ReadableStream<Uint8Array>),
    fileName,
    type: 'text/csv; charset=utf-8',
  });
