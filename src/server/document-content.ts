import { fileTypeFromBuffer } from 'file-type';
import { DOCUMENT_TYPES, type DocumentMime } from '../lib/documents';

/**
 * What a file is, by its magic bytes (file-type): one of the accepted types (lib/documents.ts
 * DOCUMENT_TYPES), or undefined — an executable renamed '.pdf', a text file, a ZIP, an SVG (which can
 * carry script) are all undefined here, whatever their name or the browser said.
 */
export async function documentTypeOf(bytes: Uint8Array): Promise<DocumentMime | undefined> {
  const detected = await fileTypeFromBuffer(bytes);
  return detected && detected.mime in DOCUMENT_TYPES ? (detected.mime as DocumentMime) : undefined;
}
