import { describe, expect, it } from 'vitest';
import { documentTypeOf } from './document-content';
import { MINIMAL_PDF, MINIMAL_PNG } from '../../tests/fixtures/documents';

const bytes = (...values: number[]) => new Uint8Array([...values, ...new Array(64).fill(0)]);
const text = (value: string) => new TextEncoder().encode(value);

/** What a file is, by its magic bytes alone: the allowed types, and what dresses up as them. */
describe('the content decides', () => {
  it.each([
    ['a PDF', MINIMAL_PDF, 'application/pdf'],
    ['a PNG', MINIMAL_PNG, 'image/png'],
    ['a JPEG (JFIF)', bytes(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00), 'image/jpeg'],
    ['a JPEG (Exif)', bytes(0xff, 0xd8, 0xff, 0xe1, 0x00, 0x10, 0x45, 0x78, 0x69, 0x66, 0x00), 'image/jpeg'],
  ])('%s is accepted as %s', async (_, content, mime) => expect(await documentTypeOf(content)).toBe(mime));

  it.each([
    ['a Windows executable (MZ)', bytes(0x4d, 0x5a, 0x90, 0x00, 0x03)],
    ['a Linux executable (ELF)', bytes(0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01)],
    ['a ZIP (an Office file)', bytes(0x50, 0x4b, 0x03, 0x04, 0x14, 0x00)],
    ['a GIF', text('GIF89a\x01\x00\x01\x00')],
    ['an SVG (it can carry script)', text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['an HTML page', text('<!doctype html><html><script>alert(1)</script></html>')],
    ['plain text', text('isto não é um PDF')],
    ['a shell script', text('#!/bin/sh\nrm -rf /\n')],
    ['nothing', new Uint8Array()],
  ])('%s is refused', async (_, content) => expect(await documentTypeOf(content)).toBeUndefined());
});
