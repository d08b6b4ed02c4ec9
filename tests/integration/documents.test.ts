import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DB } from '../../src/server/db';
import { api } from '../../src/server/api';
import { changesSettled } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, demoTokens } from '../fixtures/api';
import { HOUSE, sellResidential } from '../fixtures/selling';
import { decideProposal } from '../../src/server/services/acceptance';
import { findUserByEmail } from '../../src/server/services/principals';
import { DOCUMENT_MAX_BYTES } from '../../src/lib/documents';
import { MINIMAL_PDF, MINIMAL_PNG } from '../fixtures/documents';
import { hostileText } from '../fixtures/hostile-text';

/**
 * Issue 14, documents through the API of both generations: an upload is checked by name, size and
 * content and stores nothing when refused; one for a proposal waiting for documents resumes its
 * clock; who may list and download follows the policies' scope plus the seller's own sales, and
 * anyone else gets a 404 (decision 040).
 */
const dataDir = mkdtempSync(join(tmpdir(), 'portal-documents-'));
// Files go under DATA_DIR/files (server/files.ts): a directory of this test's own, read at first use.
process.env.DATA_DIR = dataDir;
const filesDir = join(dataDir, 'files');

let db: DB;
let close: () => Promise<void>;
const call = () => apiClient(db);

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  as = demoTokens(call());
});
afterAll(async () => {
  await close();
  rmSync(dataDir, { recursive: true, force: true });
});

const PARTNER = 'parceiro@parceiro.demo';
const PARTNER_ADMIN = 'parceiro.admin@parceiro.demo';
const SUBAGENT = 'substabelecido@parceiro.demo';
const ADMIN = 'admin@seguradora.demo';

let as: ReturnType<typeof demoTokens>;

const baseOf = (email: string) => (email.endsWith('@legado.demo') ? 'plataforma' : 'bff');

/** A name as the island sends it; one with a lone surrogate (no UTF-8 form) as the bytes a client would garble it to. */
const encodedName = (name: string) => {
  try {
    return encodeURIComponent(name);
  } catch {
    return '%ED%B3%BF';
  }
};

/** Sends a file's bytes as the upload island does: raw body, name in the header, kind in the query. */
async function upload(email: string, nrProposta: string, name: string, bytes: Uint8Array, categoria = 'LAUDO_VISTORIA') {
  await changesSettled(db);
  const response = await api.handle(
    new Request(`http://portal.test/api/${baseOf(email)}/v1/propostas/${nrProposta}/documentos?categoria=${categoria}`, {
      method: 'POST',
      headers: { ...(await as(email)), 'content-type': 'application/octet-stream', 'x-nome-arquivo': encodedName(name) },
      body: bytes as Uint8Array<ArrayBuffer>,
    }),
    { ip: '10.0.0.1', db: async () => db },
  );
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: JSON.parse(text) };
}

async function download(email: string, id: number) {
  await changesSettled(db);
  const response = await api.handle(
    new Request(`http://portal.test/api/${baseOf(email)}/v1/documentos/${id}/arquivo`, { headers: await as(email) }),
    { ip: '10.0.0.1', db: async () => db },
  );
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const list = async (email: string, query = '') =>
  call()('GET', `/api/${baseOf(email)}/v1/documentos${query}`, { headers: await as(email) });

/** A proposal of the demo partner referred for analysis, for which the provider's admin asked documents. */
async function awaitingDocuments(): Promise<string> {
  const { nrProposta } = await sellResidential(db, { respostas: { ...HOUSE, construcao: 'mista' } });
  const adminId = (await findUserByEmail(db, ADMIN))!.id;
  await decideProposal(db, adminId, nrProposta, { decisao: 'SOLICITAR_DOCUMENTOS', motivo: 'Laudo de vistoria do imóvel.' }, new Date());
  return nrProposta;
}

const proposal = (nrProposta: string) =>
  db.selectFrom('proposals').selectAll().where('nr_proposta', '=', nrProposta).executeTakeFirstOrThrow();
const documentCount = async () =>
  Number((await db.selectFrom('documents').select(db.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
const storedFiles = () => {
  try {
    return readdirSync(filesDir);
  } catch {
    return [];
  }
};

describe('uploading for a proposal waiting for documents', () => {
  it('stores the PDF by its hash, records it and resumes the acceptance clock', async () => {
    const nrProposta = await awaitingDocuments();
    const before = await proposal(nrProposta);
    expect(before.status).toBe('AGUARDANDO_DOCUMENTOS');
    const sent = await upload(PARTNER, nrProposta, 'Laudo vistoria.PDF', MINIMAL_PDF);
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    expect(sent.json.dado).toMatchObject({
      retomada: true,
      documento: {
        nome: 'Laudo vistoria.PDF',
        mime: 'application/pdf',
        tamanho: MINIMAL_PDF.byteLength,
        nrProposta,
        enviadoPor: 'Eduarda Lima',
      },
    });
    const after = await proposal(nrProposta);
    expect(after).toMatchObject({ status: 'EM_ANALISE', suspensa_desde: null });
    expect(after.aceite_ate.getTime()).toBeGreaterThanOrEqual(before.aceite_ate.getTime());
    const events = await db
      .selectFrom('proposal_events')
      .select(['tipo', 'detalhe'])
      .where('proposal_id', '=', after.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(events).toEqual({ tipo: 'DOCUMENTOS_ENVIADOS', detalhe: 'Laudo de vistoria: Laudo vistoria.PDF' });
    expect(storedFiles()).toContain(
      (await db.selectFrom('documents').select('sha256').where('id', '=', sent.json.dado.documento.id).executeTakeFirstOrThrow()).sha256,
    );

    // A second file for the same proposal is stored; the clock, already running, is left alone.
    const again = await upload(PARTNER, nrProposta, 'fachada', MINIMAL_PNG, 'OUTRO');
    expect(again.json.dado).toMatchObject({ retomada: false, documento: { nome: 'fachada.png', mime: 'image/png' } });
  });

  it('keeps one file for the same bytes sent twice', async () => {
    const nrProposta = await awaitingDocuments();
    const files = storedFiles().length;
    await upload(PARTNER, nrProposta, 'copia-1.pdf', MINIMAL_PDF);
    await upload(PARTNER, nrProposta, 'copia-2.pdf', MINIMAL_PDF);
    expect(storedFiles().length).toBe(files);
  });
});

describe('refused uploads store nothing', () => {
  let nrProposta: string;
  beforeAll(async () => {
    nrProposta = await awaitingDocuments();
  });

  const EXECUTABLE = new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, ...new Array(200).fill(0)]);
  it.each([
    ['an executable renamed .pdf', 'nota.pdf', EXECUTABLE, 400, 'Tipo de arquivo não permitido: envie um PDF, JPEG ou PNG.'],
    ['a text file renamed .pdf', 'nota.pdf', new TextEncoder().encode('isto não é um PDF'), 400, 'Tipo de arquivo não permitido'],
    ['a zero-byte file', 'vazio.pdf', new Uint8Array(), 400, 'O arquivo está vazio (0 bytes): escolha outro.'],
    ['a name going up a directory', '../x.pdf', MINIMAL_PDF, 400, 'não pode conter um caminho'],
    ['a name with a directory', 'a/b.pdf', MINIMAL_PDF, 400, 'não pode conter um caminho'],
    ['a Windows path', 'C:\\x.pdf', MINIMAL_PDF, 400, 'não pode conter um caminho'],
    ['a control character', 'nota\u0007.pdf', MINIMAL_PDF, 400, 'caracteres de controle'],
    ['a right-to-left override', 'nota\u202Efdp.exe', MINIMAL_PDF, 400, 'caracteres de controle'],
    ['a file over 10 MB', 'grande.pdf', new Uint8Array(DOCUMENT_MAX_BYTES + 1), 413, 'O arquivo excede o limite de 10 MB.'],
  ])('%s', async (_, name, bytes, status, message) => {
    const documents = await documentCount();
    const files = storedFiles().length;
    const sent = await upload(PARTNER, nrProposta, name, bytes);
    expect(sent.status).toBe(status);
    expect(sent.json.message).toContain(message);
    expect(sent.json.erros.arquivo[0]).toContain(message);
    expect(await documentCount()).toBe(documents);
    expect(storedFiles().length).toBe(files);
    expect((await proposal(nrProposta)).status).toBe('AGUARDANDO_DOCUMENTOS');
  });

  it('refuses an unknown category with a field error', async () => {
    const sent = await upload(PARTNER, nrProposta, 'nota.pdf', MINIMAL_PDF, 'SELFIE');
    expect(sent.status).toBe(400);
    expect(sent.json.erros.categoria).toEqual(['Escolha o tipo do documento.']);
  });
});

describe('who sees, sends and downloads a document (per company)', () => {
  let nrProposta: string;
  let id: number;
  beforeAll(async () => {
    nrProposta = await awaitingDocuments();
    id = (await upload(PARTNER, nrProposta, 'Laudo.pdf', MINIMAL_PDF)).json.dado.documento.id;
  });

  it.each([
    ['the seller who sold it', PARTNER, true],
    ['the partner admin of the company', PARTNER_ADMIN, true],
    ['the provider’s admin', ADMIN, true],
    ['a user of another company', SUBAGENT, false],
    ['a legacy admin (another generation)', 'admin@legado.demo', false],
  ])('%s: %s', async (_, email, sees) => {
    const listed = await list(email, `?nrProposta=${nrProposta}`);
    expect(listed.status).toBe(200);
    const rows = (listed.json.dado ?? listed.json.resultado).content as { id: number }[];
    expect(rows.some((row) => row.id === id)).toBe(sees);
    const file = await download(email, id);
    expect(file.status).toBe(sees ? 200 : 404);
    if (sees) {
      expect(Buffer.from(file.bytes).equals(Buffer.from(MINIMAL_PDF))).toBe(true);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(file.headers.get('content-disposition')).toBe(`attachment; filename="Laudo.pdf"; filename*=UTF-8''Laudo.pdf`);
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(file.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers 404 to an upload for a proposal of another company, and stores nothing', async () => {
    const documents = await documentCount();
    const sent = await upload(SUBAGENT, nrProposta, 'intruso.pdf', MINIMAL_PDF);
    expect(sent.status).toBe(404);
    expect(await documentCount()).toBe(documents);
  });

  it('refuses bad filters with pt-BR field errors', async () => {
    const listed = await list(PARTNER, '?nrProposta=abc&de=2026-13-01&categoria=X');
    expect(listed.status).toBe(400);
    expect(Object.keys(listed.json.erros).sort()).toEqual(['categoria', 'de', 'nrProposta']);
  });
});

describe('the legacy generation', () => {
  it('lets a legacy seller send a document for their own proposal, and the admin group download it', async () => {
    const row = await db
      .selectFrom('proposals as p')
      .innerJoin('quotes as q', 'q.id', 'p.quote_id')
      .innerJoin('users as u', 'u.id', 'q.user_id')
      .select('p.nr_proposta')
      .where('u.email', '=', 'vendedor@legado.demo')
      .executeTakeFirstOrThrow();
    const sent = await upload('vendedor@legado.demo', row.nr_proposta, 'rg.png', MINIMAL_PNG, 'IDENTIFICACAO');
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    const id = sent.json.resultado.documento.id as number;
    expect((await download('admin@legado.demo', id)).status).toBe(200);
    expect((await download('consultor@legado.demo', id)).status).toBe(404);
    expect((await download(PARTNER_ADMIN, id)).status).toBe(404);
  });
});

describe('an upload under random names and bytes (signed in)', () => {
  it('never answers 5xx, and stores a row only for what it accepted', async () => {
    const nrProposta = await awaitingDocuments();
    const headTypes = fc.constantFrom(MINIMAL_PDF.slice(0, 8), MINIMAL_PNG.slice(0, 8), new Uint8Array([0x4d, 0x5a]), new Uint8Array());
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(hostileText(), fc.string({ maxLength: 200 })),
        headTypes,
        fc.uint8Array({ maxLength: 64 }),
        async (name, head, tail) => {
          const documents = await documentCount();
          const bytes = new Uint8Array([...head, ...tail]);
          const sent = await upload(PARTNER, nrProposta, name, bytes, 'OUTRO');
          expect(sent.status, JSON.stringify(sent.json)).toBeLessThan(500);
          expect(await documentCount()).toBe(sent.status === 200 ? documents + 1 : documents);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});
