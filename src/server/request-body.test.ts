import { describe, expect, it } from 'vitest';
import { bodyLimitFor, BodyTooLargeError, isBodyTooLarge, MAX_BODY_BYTES, readBody, readBodyText } from './request-body';
import { DOCUMENT_MAX_BYTES } from '../lib/documents';

/** A request whose body arrives in chunks without a Content-Length, as a chunked upload does. */
function chunked(chunks: (Uint8Array | Error)[]) {
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next === undefined) controller.close();
      else if (next instanceof Error) controller.error(next);
      else controller.enqueue(next);
    },
  });
  return new Request('http://portal.test/', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
}
const bytes = (size: number) => new Uint8Array(size).fill(120);

describe('readBody', () => {
  it('reads a chunked body within the limit', async () => {
    expect((await readBody(chunked([bytes(10), bytes(20)]))).byteLength).toBe(30);
    expect(await readBodyText(new Request('http://portal.test/', { method: 'POST', body: 'ação' }))).toBe('ação');
  });

  it('reads an empty body and a request without one', async () => {
    expect((await readBody(new Request('http://portal.test/'))).byteLength).toBe(0);
    expect((await readBody(chunked([]))).byteLength).toBe(0);
  });

  it('stops a chunked body as soon as it passes the limit', async () => {
    const request = chunked([bytes(MAX_BODY_BYTES), bytes(1), bytes(10)]);
    await expect(readBody(request)).rejects.toBeInstanceOf(BodyTooLargeError);
    await expect(readBody(chunked([bytes(6)]), 5)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('refuses a declared length over the limit without reading', async () => {
    const request = new Request('http://portal.test/', {
      method: 'POST',
      body: 'x',
      headers: { 'content-length': String(MAX_BODY_BYTES + 1) },
    });
    await expect(readBody(request)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it("turns the node adapter's own limit error into BodyTooLargeError", async () => {
    // What astro/app/node throws into the stream past bodySizeLimit.
    const adapterError = new Error('Body size limit exceeded: received more than 1048576 bytes');
    await expect(readBody(chunked([bytes(10), adapterError]))).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('lets any other read failure through as it is', async () => {
    const aborted = new TypeError('terminated');
    await expect(readBody(chunked([bytes(10), aborted]))).rejects.toBe(aborted);
  });
});

describe('isBodyTooLarge', () => {
  it.each([
    [new BodyTooLargeError(), true],
    [new Error('Body size limit exceeded: received more than 1048576 bytes'), true],
    [new Error('Body size limit exceeded'), false],
    [new TypeError('terminated'), false],
    ['Body size limit exceeded: received more than 1 bytes', false],
  ])('%s → %s', (error, expected) => expect(isBodyTooLarge(error)).toBe(expected));
});

describe('the body limit of each route', () => {
  it.each([
    ['/api/bff/v1/propostas/2026000001/documentos', DOCUMENT_MAX_BYTES],
    ['/api/plataforma/v1/propostas/2026000001/documentos/', DOCUMENT_MAX_BYTES],
    ['/api/bff/v1/propostas/2026000001/documentos/x', MAX_BODY_BYTES],
    ['/api/bff/v1/cotacoes/2026000001/proposta/documentos', MAX_BODY_BYTES],
    ['/api/gateway/login', MAX_BODY_BYTES],
    ['/documentos/envio', MAX_BODY_BYTES],
    // The user import's upload forms: the file's 2 MB and the form around it.
    ['/importar-usuarios', 2 * 1024 * 1024 + 64 * 1024],
    ['/v2/usuario/importacao/upload', 2 * 1024 * 1024 + 64 * 1024],
    ['/v2/usuario/importacao/validacao', MAX_BODY_BYTES],
  ])('%s → %i bytes', (path, bytes) => expect(bodyLimitFor(path).bytes).toBe(bytes));

  it('says which limit a refused upload passed', () => {
    expect(bodyLimitFor('/api/bff/v1/propostas/1/documentos').message).toBe('O arquivo excede o limite de 10 MB.');
    expect(bodyLimitFor('/api/gateway/login').message).toBe('O corpo da requisição excede o limite de 1 MB.');
  });
});
