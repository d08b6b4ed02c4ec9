import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import { DOCUMENT_TYPES, type DocumentMime } from '../lib/documents';

/*
 * What a file is, by its magic bytes (file-type): one of the accepted types (lib/documents.ts
 * DOCUMENT_TYPES), or undefined — an executable renamed '.pdf', a text file, a ZIP, an SVG (which can
 * carry script) are all undefined here, whatever their name or the browser said.
 */
const accepted = (detected: { mime: string } | undefined): DocumentMime | undefined =>
  detected && detected.mime in DOCUMENT_TYPES ? (detected.mime as DocumentMime) : undefined;

export const documentTypeOf = async (bytes: Uint8Array): Promise<DocumentMime | undefined> => accepted(await fileTypeFromBuffer(bytes));

/** The same for a file received on disk: file-type reads only the bytes it needs from its start. */
export const documentTypeOfFile = async (path: string): Promise<DocumentMime | undefined> => accepted(await fileTypeFromFile(path));
