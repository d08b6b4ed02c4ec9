import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { DB } from '../../src/server/db';
import { api } from '../../src/server/api';
import { changesSettled } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, demoTokens } from '../fixtures/api';
import { HOUSE, sellResidential } from '../fixtures/selling';
import { analysisQueue, decideProposal } from '../../src/server/services/after-sale/acceptance';
import { underwriterDocumentFile } from '../../src/server/services/after-sale/documents';
import { admitUpload, releaseUpload, sweepUploads, uploadUsage } from '../../src/server/services/after-sale/document-uploads';
import { FILE_MISSING_MESSAGE, localStore } from '../../src/server/files';
import { JOBS } from '../../src/server/boot/jobs';
import { findUserByEmail } from '../../src/server/services/identity/principals';
import { DOCUMENT_MAX_BYTES } from '../../src/lib/documents';
import { MINIMAL_PDF, MINIMAL_PNG } from '../fixtures/documents';
import { hostileText } from '../fixtures/hostile-text';

/**
 * Issue 14, documents through the API of both generations: an upload is checked by name, size and
 * content and stores nothing when refused; one for a proposal waiting for documents resumes its
 * clock; who may list and download follows the policies' scope plus the seller's own sales, and
 * anyone else gets a 404 (decision 040).
 */
/** The free space the upload's disk-space floor reads: the real one, unless a test says otherwise. */
const disk = vi.hoisted(() => ({ free: undefined as number | undefined }));
vi.mock('../../src/server/files', async (original) => {
  const actual = await original<typeof import('../../src/server/files')>();
  const store = () => {
    const files = actual.fileStore();
    return { ...files, freeBytes: async () => disk.free ?? files.freeBytes() };
  };
  return { ...actual, fileStore: store };
});

const dataDir = mkdtempSync(join(tmpdir(), 'portal-documents-'));
// Files go under DATA_DIR/files (server/files.ts): a directory of this test's own, read at first use.
process.env.DATA_DIR = dataDir;
const filesDir = join(dataDir, 'files');
/** The local driver over that directory, as the portal's store (STORAGE_DRIVER unset) is. */
const files = localStore(filesDir);

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
      // The length a browser declares: what the limits count before the body is read.
      headers: {
        ...(await as(email)),
        'content-type': 'application/octet-stream',
        'content-length': String(bytes.byteLength),
        'x-nome-arquivo': encodedName(name),
      },
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
      expect(file.headers.get('cache-control')).toBe('private, no-store');
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

describe('a document carries its sale’s scope, kept by the database (migration 035)', () => {
  /** What the document says of its sale, and what its quote says. */
  const scopes = async (id: number) => {
    const { rows } = await sql<{ own: string; quote: string }>`
      select row(d.company_id, d.seller_id, d.generation)::text as own, row(q.company_id, q.user_id, q.generation)::text as quote
      from documents d join proposals p on p.id = d.proposal_id join quotes q on q.id = p.quote_id where d.id = ${id}`.execute(db);
    return rows[0]!;
  };
  const listedTo = async (email: string, nrProposta: string) =>
    ((await list(email, `?nrProposta=${nrProposta}`)).json.dado.content as { id: number }[]).map((row) => row.id);
  /** The quote of a sale of the substabelecido's company: where a quote is moved to. */
  const subagentSale = () =>
    db
      .selectFrom('quotes as q')
      .innerJoin('users as u', 'u.id', 'q.user_id')
      .select(['q.company_id', 'q.user_id'])
      .where('u.email', '=', SUBAGENT)
      .where('q.generation', '=', 'v2')
      .executeTakeFirstOrThrow();

  it('is copied from the quote when a document is written by plain SQL, and a scope written by hand never sticks', async () => {
    const nrProposta = await awaitingDocuments();
    const { id: proposalId } = await proposal(nrProposta);
    const { sha256 } = await db.selectFrom('documents').select('sha256').executeTakeFirstOrThrow();
    const { rows } = await sql<{ id: number }>`insert into documents (proposal_id, user_id, categoria, nome, mime, tamanho, sha256)
      values (${proposalId}, ${await userId(PARTNER)}, 'OUTRO', 'por-sql.pdf', 'application/pdf', 10, ${sha256}) returning id`.execute(db);
    const id = rows[0]!.id;
    const written = await scopes(id);
    expect(written.own).toBe(written.quote);
    expect(written.own).toMatch(/^\(\d+,\d+,v2\)$/);
    expect(await listedTo(PARTNER, nrProposta)).toEqual([id]);
    expect(await listedTo(PARTNER_ADMIN, nrProposta)).toEqual([id]);
    expect(await listedTo(SUBAGENT, nrProposta)).toEqual([]);

    // An operator's fix naming another company and seller on the document: the sale's scope stays.
    const other = await subagentSale();
    await sql`update documents set company_id = ${other.company_id}, seller_id = ${other.user_id}, generation = 'v1' where id = ${id}`.execute(
      db,
    );
    expect(await scopes(id)).toEqual(written);
    expect(await listedTo(SUBAGENT, nrProposta)).toEqual([]);
    expect((await download(SUBAGENT, id)).status).toBe(404);
  });

  it('moves with its quote when the sale is given to another company and seller, and back', async () => {
    const nrProposta = await awaitingDocuments();
    const id = (await upload(PARTNER, nrProposta, 'Laudo.pdf', MINIMAL_PDF)).json.dado.documento.id as number;
    const { quote_id } = await proposal(nrProposta);
    const sold = await db.selectFrom('quotes').select(['company_id', 'user_id']).where('id', '=', quote_id).executeTakeFirstOrThrow();
    const other = await subagentSale();
    expect(other.company_id).not.toBe(sold.company_id);

    await db.updateTable('quotes').set({ company_id: other.company_id, user_id: other.user_id }).where('id', '=', quote_id).execute();
    const moved = await scopes(id);
    expect(moved.own).toBe(moved.quote);
    expect(await listedTo(SUBAGENT, nrProposta)).toEqual([id]);
    expect((await download(SUBAGENT, id)).status).toBe(200);
    expect(await listedTo(PARTNER, nrProposta)).toEqual([]);
    expect((await download(PARTNER, id)).status).toBe(404);
    expect((await remove(PARTNER, id)).status).toBe(404);
    expect(await listedTo(ADMIN, nrProposta)).toEqual([id]);

    await db.updateTable('quotes').set({ company_id: sold.company_id, user_id: sold.user_id }).where('id', '=', quote_id).execute();
    expect(await listedTo(PARTNER, nrProposta)).toEqual([id]);
    expect((await download(SUBAGENT, id)).status).toBe(404);
  });

  it('moves with its proposal when an operator hangs the proposal on another quote', async () => {
    const nrProposta = await awaitingDocuments();
    const id = (await upload(PARTNER, nrProposta, 'Laudo.pdf', MINIMAL_PDF)).json.dado.documento.id as number;
    const { id: proposalId, quote_id } = await proposal(nrProposta);
    const other = await subagentSale();
    // A quote of the substabelecido's that never became a proposal.
    const { id: unsent } = await db
      .selectFrom('quotes as q')
      .leftJoin('proposals as p', 'p.quote_id', 'q.id')
      .select('q.id')
      .where('q.user_id', '=', other.user_id)
      .where('q.generation', '=', 'v2')
      .where('p.id', 'is', null)
      .executeTakeFirstOrThrow();
    await db.updateTable('proposals').set({ quote_id: unsent }).where('id', '=', proposalId).execute();
    const moved = await scopes(id);
    expect(moved.own).toBe(moved.quote);
    expect(await listedTo(SUBAGENT, nrProposta)).toEqual([id]);
    expect(await listedTo(PARTNER, nrProposta)).toEqual([]);
    await db.updateTable('proposals').set({ quote_id }).where('id', '=', proposalId).execute();
    expect(await listedTo(PARTNER, nrProposta)).toEqual([id]);
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

// Issue 27: the limits an upload is counted against, before its body is read (decision 057).

/** A body that sends `bytes` only when released, and says whether anyone asked for it yet. */
function heldBody(bytes: Uint8Array) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        pulled += 1;
        await gate;
        controller.enqueue(bytes);
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, release, pulled: () => pulled };
}

/** An upload whose body is a stream (no declared length), as a client sending chunks would. */
async function uploadStream(email: string, nrProposta: string, name: string, body: ReadableStream<Uint8Array>) {
  await changesSettled(db);
  const response = await api.handle(
    new Request(`http://portal.test/api/${baseOf(email)}/v1/propostas/${nrProposta}/documentos?categoria=OUTRO`, {
      method: 'POST',
      headers: { ...(await as(email)), 'content-type': 'application/octet-stream', 'x-nome-arquivo': encodeURIComponent(name) },
      body,
      duplex: 'half',
    } as RequestInit),
    { ip: '10.0.0.1', db: async () => db },
  );
  return { status: response.status, headers: response.headers, json: JSON.parse(await response.text()) };
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'still reading'>((resolve) => setTimeout(() => resolve('still reading'), ms))]);

async function until(condition: () => boolean | Promise<boolean>, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const userId = async (email: string) => (await findUserByEmail(db, email))!.id;
const IGOR = 'igor.pereira@parceiro.demo';
const JULIANA = 'juliana.costa@parceiro.demo';

/** Rows as if `email` had sent `files` documents of `bytes` each today, to `nrProposta` (their file: MINIMAL_PDF's). */
async function alreadySent(email: string, nrProposta: string, files: number, bytes: number) {
  const { id: proposalId } = await proposal(nrProposta);
  const { sha256 } = await db.selectFrom('documents').select('sha256').executeTakeFirstOrThrow();
  const user = await userId(email);
  await db
    .insertInto('documents')
    .values(
      Array.from({ length: files }, (_, i) => ({
        proposal_id: proposalId,
        user_id: user,
        categoria: 'OUTRO' as const,
        nome: `anterior-${i}.pdf`,
        mime: 'application/pdf' as const,
        tamanho: bytes,
        sha256,
        created_at: new Date(),
      })),
    )
    .execute();
}

const reservations = async () =>
  Number((await db.selectFrom('document_uploads').select(db.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

describe('upload limits, counted in the database before the body is read', () => {
  it('lets a user have two uploads under way, refuses a third without reading it (429), and frees the slots as they end', async () => {
    const { nrProposta } = await sellResidential(db, { email: JULIANA, respostas: { ...HOUSE, construcao: 'mista' } });
    const first = heldBody(MINIMAL_PDF);
    const second = heldBody(MINIMAL_PNG);
    const a = uploadStream(JULIANA, nrProposta, 'a.pdf', first.stream);
    const b = uploadStream(JULIANA, nrProposta, 'b.png', second.stream);
    await until(() => first.pulled() > 0 && second.pulled() > 0);

    const third = heldBody(MINIMAL_PDF);
    const refused = await within(uploadStream(JULIANA, nrProposta, 'c.pdf', third.stream), 2_000);
    third.release();
    first.release();
    second.release();
    expect(refused).not.toBe('still reading');
    if (refused === 'still reading') return;
    expect(refused.status).toBe(429);
    expect(refused.json.message).toBe(
      'Você já tem 2 envios em andamento, o máximo ao mesmo tempo: aguarde terminarem para enviar outro arquivo.',
    );
    expect(refused.json.erros.arquivo).toEqual([refused.json.message]);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(third.pulled()).toBe(0);

    expect((await a).status).toBe(200);
    expect((await b).status).toBe(200);
    expect(await reservations()).toBe(0);
    expect((await upload(JULIANA, nrProposta, 'd.pdf', MINIMAL_PDF, 'OUTRO')).status).toBe(200);
  });

  it('counts the uploads under way on other instances (their rows), and admits no more than allowed when asked at once', async () => {
    const { nrProposta } = await sellResidential(db, { email: JULIANA, respostas: { ...HOUSE, construcao: 'mista' } });
    const { id: proposalId } = await proposal(nrProposta);
    const juliana = await userId(JULIANA);
    const now = new Date();
    // Another instance's two uploads of hers, under way.
    const elsewhere = {
      user_id: juliana,
      proposal_id: proposalId,
      bytes: 1024,
      started_at: now,
      expires_at: new Date(now.getTime() + 60_000),
    };
    await db.insertInto('document_uploads').values([elsewhere, elsewhere]).execute();
    const refused = await upload(JULIANA, nrProposta, 'mais-um.pdf', MINIMAL_PDF);
    expect(refused.status).toBe(429);
    expect(refused.json.message).toContain('2 envios em andamento');
    await db.deleteFrom('document_uploads').execute();

    // Ten asked at the same moment (one connection each on PostgreSQL): two get a place.
    const asked = await Promise.all(
      Array.from({ length: 10 }, () => admitUpload(db, { userId: juliana, proposalId, bytes: 1024 }, new Date())),
    );
    const admitted = asked.filter((a) => a.ok);
    expect(admitted).toHaveLength(2);
    expect(await reservations()).toBe(2);
    for (const a of admitted) if (a.ok) await releaseUpload(db, a.ticket);
    expect(await reservations()).toBe(0);
  });

  it('refuses a document past the proposal’s 30 (413, with the limit in the message) and stores nothing', async () => {
    const { nrProposta } = await sellResidential(db, { email: IGOR });
    await alreadySent(IGOR, nrProposta, 29, 1024);
    expect((await upload(IGOR, nrProposta, 'ultimo.pdf', MINIMAL_PDF)).status).toBe(200);
    const documents = await documentCount();
    const held = heldBody(MINIMAL_PDF);
    const sent = await within(uploadStream(IGOR, nrProposta, 'demais.pdf', held.stream), 2_000);
    held.release();
    expect(sent).not.toBe('still reading');
    if (sent === 'still reading') return;
    expect(sent.status).toBe(413);
    expect(sent.json.message).toBe(
      'Esta proposta já tem 30 documentos, o limite por proposta. Remova um documento enviado por engano ou fale com a seguradora.',
    );
    expect(held.pulled()).toBe(0);
    expect(await documentCount()).toBe(documents);
    expect(await reservations()).toBe(0);
  });

  it('refuses what passes a user’s 500 MB a day (429 until midnight in Brasília), on any proposal', async () => {
    const { nrProposta: full } = await sellResidential(db, { email: IGOR });
    const { nrProposta: other } = await sellResidential(db, { email: IGOR });
    // 495 MB sent today, over several proposals (five files of 99 MB, as rows: the test sends no 495 MB).
    await alreadySent(IGOR, full, 5, 99 * 1024 * 1024);
    const sent = await upload(IGOR, other, 'grande.pdf', new Uint8Array([...MINIMAL_PDF, ...new Uint8Array(6 * 1024 * 1024)]));
    expect(sent.status).toBe(429);
    expect(sent.json.message).toMatch(
      /^Este arquivo passaria do limite de 500 MB enviados por dia \(hoje: [\d,]+ MB\)\. Tente novamente amanhã\.$/,
    );
    expect(Number(sent.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(sent.headers.get('retry-after'))).toBeLessThanOrEqual(86_400);
    // A small one still fits.
    expect((await upload(IGOR, other, 'pequeno.pdf', MINIMAL_PDF)).status).toBe(200);
  });

  it('refuses every upload while the disk is under its floor (507, said in pt-BR), storing nothing', async () => {
    const nrProposta = await awaitingDocuments();
    const documents = await documentCount();
    const files = storedFiles().length;
    disk.free = 100 * 1024 * 1024;
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const sent = await upload(PARTNER, nrProposta, 'laudo.pdf', MINIMAL_PDF);
      expect(sent.status).toBe(507);
      expect(sent.json.message).toBe(
        'O portal está sem espaço para receber arquivos no momento. Tente novamente mais tarde; a equipe técnica foi avisada.',
      );
      expect(errors).toHaveBeenCalledWith(expect.stringContaining('espaço em disco'));
    } finally {
      disk.free = undefined;
      errors.mockRestore();
    }
    expect(await documentCount()).toBe(documents);
    expect(storedFiles().length).toBe(files);
    expect(await reservations()).toBe(0);
    expect((await proposal(nrProposta)).status).toBe('AGUARDANDO_DOCUMENTOS');
  });

  it('leaves no reservation behind a refused file', async () => {
    const nrProposta = await awaitingDocuments();
    expect((await upload(PARTNER, nrProposta, 'texto.pdf', new TextEncoder().encode('não sou PDF'))).status).toBe(400);
    expect(await reservations()).toBe(0);
  });
});

const timeline = async (nrProposta: string) =>
  db
    .selectFrom('proposal_events as e')
    .innerJoin('proposals as p', 'p.id', 'e.proposal_id')
    .select(['e.tipo', 'e.detalhe'])
    .where('p.nr_proposta', '=', nrProposta)
    .orderBy('e.id')
    .execute();

async function remove(email: string, id: number) {
  await changesSettled(db);
  const response = await api.handle(
    new Request(`http://portal.test/api/${baseOf(email)}/v1/documentos/${id}`, {
      method: 'DELETE',
      headers: { ...(await as(email)), origin: 'http://portal.test' },
    }),
    { ip: '10.0.0.1', db: async () => db },
  );
  return { status: response.status, json: JSON.parse(await response.text()) };
}

describe('the timeline names every document sent', () => {
  it('records each file, not only the one that resumed the clock', async () => {
    const nrProposta = await awaitingDocuments();
    await upload(PARTNER, nrProposta, 'laudo.pdf', MINIMAL_PDF);
    await upload(PARTNER, nrProposta, 'fachada.png', MINIMAL_PNG, 'OUTRO');
    const events = await timeline(nrProposta);
    expect(events.slice(-2)).toEqual([
      { tipo: 'DOCUMENTOS_ENVIADOS', detalhe: 'Laudo de vistoria: laudo.pdf' },
      { tipo: 'DOCUMENTO_ENVIADO', detalhe: 'Outro: fachada.png' },
    ]);
  });
});

describe('removing a document sent by mistake', () => {
  it('lets the sender remove it while the proposal is undecided: gone from the list and the download, on the timeline', async () => {
    const nrProposta = await awaitingDocuments();
    const right = (await upload(PARTNER, nrProposta, 'laudo.pdf', MINIMAL_PDF)).json.dado.documento.id as number;
    const wrong = (await upload(PARTNER, nrProposta, 'rg-de-outra-pessoa.png', MINIMAL_PNG, 'IDENTIFICACAO')).json.dado.documento
      .id as number;

    const removed = await remove(PARTNER, wrong);
    expect(removed.status, JSON.stringify(removed.json)).toBe(200);
    expect(removed.json.dado).toMatchObject({ removido: true, suspensa: false });
    const rows = ((await list(PARTNER, `?nrProposta=${nrProposta}`)).json.dado.content as { id: number }[]).map((r) => r.id);
    expect(rows).toEqual([right]);
    expect((await download(PARTNER, wrong)).status).toBe(404);
    expect((await download(ADMIN, wrong)).status).toBe(404);
    expect((await timeline(nrProposta)).at(-1)).toEqual({
      tipo: 'DOCUMENTO_REMOVIDO',
      detalhe: 'Documento de identificação (RG/CNH): rg-de-outra-pessoa.png',
    });
    // Once is enough: the same removal again finds nothing.
    expect((await remove(PARTNER, wrong)).status).toBe(404);
    expect((await proposal(nrProposta)).status).toBe('EM_ANALISE');
  });

  it('refuses anyone but the sender (403), anyone outside the scope (404), and a decided proposal (409)', async () => {
    const nrProposta = await awaitingDocuments();
    const id = (await upload(PARTNER, nrProposta, 'laudo.pdf', MINIMAL_PDF)).json.dado.documento.id as number;
    const other = (await upload(PARTNER, nrProposta, 'outro.pdf', MINIMAL_PDF, 'OUTRO')).json.dado.documento.id as number;
    const notSender = await remove(PARTNER_ADMIN, id);
    expect(notSender.status).toBe(403);
    expect(notSender.json.message).toBe('Só quem enviou o documento pode removê-lo.');
    expect((await remove(SUBAGENT, id)).status).toBe(404);
    expect((await remove('admin@legado.demo', id)).status).toBe(404);

    await decideProposal(db, await userId(ADMIN), nrProposta, { decisao: 'ACEITAR' }, new Date());
    const decided = await remove(PARTNER, other);
    expect(decided.status).toBe(409);
    expect(decided.json.message).toBe('A proposta já foi decidida pela seguradora: os documentos dela não podem mais ser removidos.');
    expect((await list(PARTNER, `?nrProposta=${nrProposta}`)).json.dado.content).toHaveLength(2);
  });

  it('stops the clock again when the only document that answered the insurer’s request is removed', async () => {
    const nrProposta = await awaitingDocuments();
    const id = (await upload(PARTNER, nrProposta, 'qualquer.pdf', MINIMAL_PDF)).json.dado.documento.id as number;
    expect((await proposal(nrProposta)).status).toBe('EM_ANALISE');
    const removed = await remove(PARTNER, id);
    expect(removed.json.dado).toMatchObject({ removido: true, suspensa: true });
    const after = await proposal(nrProposta);
    expect(after.status).toBe('AGUARDANDO_DOCUMENTOS');
    expect(after.suspensa_desde).not.toBeNull();
    expect(after.motivo).toBe('Laudo de vistoria do imóvel.');
    expect((await timeline(nrProposta)).slice(-2).map((e) => e.tipo)).toEqual(['DOCUMENTO_REMOVIDO', 'DOCUMENTOS_PENDENTES']);
  });

  it('frees the proposal’s room but still counts a removed document in the sender’s day', async () => {
    const { nrProposta } = await sellResidential(db, { email: IGOR, respostas: { ...HOUSE, construcao: 'mista' } });
    const { id: proposalId } = await proposal(nrProposta);
    const usage = async () => uploadUsage(db, await userId(IGOR), proposalId, new Date());
    const before = await usage();
    const id = (await upload(IGOR, nrProposta, 'engano.pdf', MINIMAL_PDF)).json.dado.documento.id as number;
    expect((await remove(IGOR, id)).status).toBe(200);
    const after = await usage();
    expect(after.proposal).toEqual(before.proposal);
    expect(after.userDay.files).toBe(before.userDay.files + 1);
    expect(after.userDay.bytes).toBe(before.userDay.bytes + MINIMAL_PDF.byteLength);
  });
});

describe('the sweeper job', () => {
  const HOUR = 60 * 60_000;
  const age = (name: string, ms: number) => {
    const moment = new Date(Date.now() - ms);
    utimesSync(join(filesDir, name), moment, moment);
  };
  const bytesNamed = (text: string) => new Uint8Array([...MINIMAL_PDF, ...new TextEncoder().encode(text)]);

  it('is one of the server’s jobs', () => {
    expect(JOBS.map((j) => j.name)).toContain('limpeza de envios e arquivos órfãos');
  });

  it('removes abandoned reservations and old files no row points at; keeps the rest', async () => {
    const nrProposta = await awaitingDocuments();
    const { id: proposalId } = await proposal(nrProposta);
    const partner = await userId(PARTNER);
    const now = new Date();
    await db
      .insertInto('document_uploads')
      .values([
        { user_id: partner, proposal_id: proposalId, bytes: 1, started_at: now, expires_at: new Date(now.getTime() - 1000) },
        { user_id: partner, proposal_id: proposalId, bytes: 1, started_at: now, expires_at: new Date(now.getTime() + HOUR) },
      ])
      .execute();

    const kept = (await upload(PARTNER, nrProposta, 'mantido.pdf', bytesNamed('mantido'))).json.dado.documento.id as number;
    const removed = (await upload(PARTNER, nrProposta, 'removido.pdf', bytesNamed('removido'))).json.dado.documento.id as number;
    await remove(PARTNER, removed);
    const hashOf = async (id: number) =>
      (await db.selectFrom('documents').select('sha256').where('id', '=', id).executeTakeFirstOrThrow()).sha256;
    const [keptHash, removedHash] = [await hashOf(kept), await hashOf(removed)];
    const orphan = 'f'.repeat(64);
    const freshOrphan = 'e'.repeat(64);
    writeFileSync(join(filesDir, orphan), 'órfão');
    writeFileSync(join(filesDir, freshOrphan), 'órfão recente');
    writeFileSync(join(filesDir, '.tmp-abandonado'), 'metade');
    writeFileSync(join(filesDir, 'LEIA-ME.txt'), 'não é nosso');
    for (const name of [keptHash, removedHash, orphan, '.tmp-abandonado', 'LEIA-ME.txt']) age(name, 2 * HOUR);

    const swept = await sweepUploads(db, files, now);
    expect(swept.reservations).toBe(1);
    expect(await reservations()).toBe(1);
    const left = storedFiles();
    expect(left).toContain(keptHash);
    expect(left).toContain(freshOrphan);
    expect(left).toContain('LEIA-ME.txt');
    expect(left).not.toContain(removedHash);
    expect(left).not.toContain(orphan);
    expect(left).not.toContain('.tmp-abandonado');
    expect((await download(PARTNER, kept)).status).toBe(200);
    await db.deleteFrom('document_uploads').execute();
  });

  it('never takes a file that is being stored again: storing it touches the one on disk', async () => {
    const bytes = bytesNamed('de novo');
    const first = await files.receive(new Blob([bytes]).stream(), DOCUMENT_MAX_BYTES);
    await (await files.place(first)).settle();
    age(first.sha256, 2 * HOUR);
    // The same bytes arrive for a new row: placed (the old file touched) but not yet committed.
    const second = await files.receive(new Blob([bytes]).stream(), DOCUMENT_MAX_BYTES);
    const placed = await files.place(second);
    await sweepUploads(db, files, new Date());
    expect(storedFiles()).toContain(first.sha256);
    // And should it be gone anyway (another instance's sweeper, a hand), settling puts this copy back.
    rmSync(join(filesDir, first.sha256));
    await placed.settle();
    expect(storedFiles()).toContain(first.sha256);
    expect(storedFiles().filter((name) => name.startsWith('.tmp-'))).toEqual([]);
  });
});

describe('a document whose file the store lost (issue 30)', () => {
  it('answers a 404 that says so — never a 200 cut short, never a 500 — and logs no access', async () => {
    // A proposal of its own, out of the analysis queue the next test reads.
    const { nrProposta } = await sellResidential(db);
    const bytes = new Uint8Array([...MINIMAL_PDF, ...new TextEncoder().encode('% perdido')]);
    const id = (await upload(PARTNER, nrProposta, 'perdido.pdf', bytes)).json.dado.documento.id as number;
    const { sha256 } = await db.selectFrom('documents').select('sha256').where('id', '=', id).executeTakeFirstOrThrow();
    const accesses = async () =>
      Number(
        (
          await db
            .selectFrom('access_events')
            .select(db.fn.countAll<string>().as('n'))
            .where('registro_tipo', '=', 'DOCUMENTO')
            .where('registro', '=', String(id))
            .executeTakeFirstOrThrow()
        ).n,
      );
    // Served whole while it is there (and logged)…
    const served = await download(PARTNER, id);
    expect(served.status).toBe(200);
    expect(served.bytes).toEqual(bytes);
    const before = await accesses();
    expect(before).toBeGreaterThan(0);
    // …then lost from the folder (a volume not shared, a hand).
    rmSync(join(filesDir, sha256));
    const answer = await download(PARTNER, id);
    expect(answer.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(answer.bytes))).toMatchObject({ message: FILE_MISSING_MESSAGE });
    expect(await accesses()).toBe(before);
  });
});

describe('the underwriter’s queue shows the documents it asked for (issue 27, item 10)', () => {
  it('lists each proposal’s documents, of both generations, removed ones left out, each with its download', async () => {
    const nrProposta = await awaitingDocuments();
    const laudo = (await upload(PARTNER, nrProposta, 'laudo.pdf', MINIMAL_PDF)).json.dado.documento.id as number;
    const fachada = (await upload(PARTNER, nrProposta, 'fachada.png', MINIMAL_PNG, 'OUTRO')).json.dado.documento.id as number;
    const engano = (await upload(PARTNER, nrProposta, 'engano.png', MINIMAL_PNG, 'OUTRO')).json.dado.documento.id as number;
    await remove(PARTNER, engano);

    const queue = (await analysisQueue(db, new Date())).content;
    const item = queue.find((q) => q.nrProposta === nrProposta)!;
    expect(item.documentos.map((d) => [d.id, d.nome, d.categoriaLabel, d.enviadoPor])).toEqual([
      [laudo, 'laudo.pdf', 'Laudo de vistoria', 'Eduarda Lima'],
      [fachada, 'fachada.png', 'Outro', 'Eduarda Lima'],
    ]);
    expect(item.documentos[0]!.href).toBe(`/v2/propostas/analise/documentos/${laudo}`);

    // The insurer's staff download any generation's document from there; a removed one is gone.
    const file = await underwriterDocumentFile(db, laudo);
    expect(file?.nome).toBe('laudo.pdf');
    expect(await underwriterDocumentFile(db, engano)).toBeUndefined();
    const legacyProposal = await db
      .selectFrom('proposals as p')
      .innerJoin('quotes as q', 'q.id', 'p.quote_id')
      .innerJoin('users as u', 'u.id', 'q.user_id')
      .select('p.nr_proposta')
      .where('u.email', '=', 'vendedor@legado.demo')
      .executeTakeFirstOrThrow();
    const legacy = (await upload('vendedor@legado.demo', legacyProposal.nr_proposta, 'cnh.png', MINIMAL_PNG, 'IDENTIFICACAO')).json
      .resultado.documento.id as number;
    expect((await underwriterDocumentFile(db, legacy))?.nome).toBe('cnh.png');
  });
});
