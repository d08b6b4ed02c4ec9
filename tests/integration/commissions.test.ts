import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { DB } from '../../src/server/db';
import { api } from '../../src/server/api';
import { changesSettled } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, signInApi, tokenOf } from '../fixtures/api';
import { cancelWholePolicy, sellResidential, viewerByEmail } from '../fixtures/selling';
import { MINIMAL_PDF, MINIMAL_PNG } from '../fixtures/documents';
import { nfseAbrasfXml } from '../fixtures/nota-fiscal';
import { hostileText } from '../fixtures/hostile-text';
import { pdfText } from '../fixtures/pdf';
import { currentCharge, payCharge } from '../../src/server/services/after-sale/charges';
import { incomeScopeFor } from '../../src/server/services/identity/scope';
import { beneficiaryMonths, companyInScope, statementOf, type Beneficiary } from '../../src/server/services/earnings/commissions';
import { incomeYearsOf } from '../../src/server/services/earnings/income';
import { incomePdfOutcome } from '../../src/features/commissions/income-pdf.server';
import { commissionOf, incomePdfHref, installmentNetPremium, monthOf, nameSlug } from '../../src/lib/commissions';
import { now } from '../../src/server/clock';
import { irrfOf } from '../../src/lib/income-tax';
import { pageAccess } from '../../src/lib/route-guards';
import { formatBRL } from '../../src/lib/products/money';

/**
 * Issue 15: commissions derived from sales made, paid and cancelled through the real services; the
 * statement's scoping by company and permission, the nota fiscal's upload rules (closed month, once,
 * the statement's amount, PDF or NF-e/NFS-e XML, nothing left behind when refused), the ADMIN's
 * decisions and the income statement (decision 041).
 */
vi.hoisted(() => {
  // Commissions exist outside production only (SPEC §2).
  process.env.PORTAL_ENV = 'TEST';
});
// Files go under DATA_DIR/files (server/files.ts): a directory of this test's own, read at first use.
const dir = mkdtempSync(join(tmpdir(), 'portal-commissions-'));
process.env.DATA_DIR = dir;
const filesDir = join(dir, 'files');

let db: DB;
let close: () => Promise<void>;
const tokens = new Map<string, string>();

const PARTNER = 'parceiro@parceiro.demo';
const PARTNER_ADMIN = 'parceiro.admin@parceiro.demo';
const SUBAGENT = 'substabelecido@parceiro.demo';
const ADMIN = 'admin@seguradora.demo';
const HORIZONTE = '11222333000181';
const VALE_VERDE = '33444555000181';

const instant = (text: string) => new Date(text);
const HOUSE_OF_SIZE = { tipoImovel: 'casa', uso: 'habitual', construcao: 'alvenaria', alarme: true };

async function pay(nrApolice: string, numero: number, when: Date) {
  const charge = await currentCharge(db, { kind: 'all' }, 'v2', nrApolice, numero);
  await payCharge(db, { code: charge.linhaDigitavel, externalId: `c-${nrApolice}-${numero}`, origem: 'BANCO_DEMO' }, when);
}

const cancel = (email: string, nrApolice: string, when: Date) => cancelWholePolicy(db, email, nrApolice, when);

let policyA: string;
let policyB: string;
let horizonte: Beneficiary;
let valeVerde: Beneficiary;

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  // A: four boletos, two paid at March's edges and one on April's first minutes (Brasília).
  policyA = (await sellResidential(db, { at: instant('2026-03-02T13:00:00Z') })).nrApolice!;
  await pay(policyA, 1, instant('2026-03-10T15:00:00Z'));
  await pay(policyA, 2, instant('2026-03-31T23:30:00-03:00'));
  await pay(policyA, 3, instant('2026-04-01T00:10:00-03:00'));
  // B: paid at once by boleto in March, cancelled by the insured in May: its clawback is May's.
  policyB = (
    await sellResidential(db, {
      at: instant('2026-03-05T13:00:00Z'),
      contratacao: { formaPagamento: 'boleto', parcelas: 1, diaVencimento: 10 },
    })
  ).nrApolice!;
  await pay(policyB, 1, instant('2026-03-06T15:00:00Z'));
  await cancel(PARTNER, policyB, instant('2026-05-05T15:00:00Z'));
  // C: the sub-delegated company's sale, paid in March.
  const policyC = (
    await sellResidential(db, {
      email: SUBAGENT,
      at: instant('2026-03-03T13:00:00Z'),
      contratacao: { formaPagamento: 'boleto', parcelas: 1, diaVencimento: 10 },
    })
  ).nrApolice!;
  await pay(policyC, 1, instant('2026-03-12T15:00:00Z'));
  horizonte = (await companyInScope(db, { kind: 'all' }, HORIZONTE))!;
  valeVerde = (await companyInScope(db, { kind: 'all' }, VALE_VERDE))!;
});
afterAll(async () => {
  await close();
  rmSync(dir, { recursive: true, force: true });
});

async function as(email: string): Promise<Record<string, string>> {
  if (!tokens.has(email)) {
    const { status, json } = await signInApi(apiClient(db), email);
    expect(status, JSON.stringify(json)).toBe(200);
    tokens.set(email, tokenOf(json) as string);
  }
  return { authtoken: tokens.get(email)! };
}

const get = async (email: string, path: string) => apiClient(db)('GET', path, { headers: await as(email) });
const post = async (email: string, path: string, body: unknown) => apiClient(db)('POST', path, { headers: await as(email), body });

async function sendNota(email: string, query: Record<string, string | number>, name: string, bytes: Uint8Array) {
  await changesSettled(db);
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const response = await api.handle(
    new Request(`http://portal.test/api/bff/v1/comissoes/notas?${search}`, {
      method: 'POST',
      headers: { ...(await as(email)), 'content-type': 'application/octet-stream', 'x-nome-arquivo': encodeURIComponent(name) },
      body: bytes as Uint8Array<ArrayBuffer>,
    }),
    { ip: '10.0.0.1', db: async () => db },
  );
  return { status: response.status, json: JSON.parse(await response.text()) };
}

const notaRows = () => db.selectFrom('notas_fiscais').selectAll().orderBy('id').execute();
const storedFiles = () => {
  try {
    return readdirSync(filesDir).sort();
  } catch {
    return [];
  }
};
const payableOf = async (company: Beneficiary, month: string) =>
  (await beneficiaryMonths(db, company)).find((m) => m.month === month)?.payable ?? 0;

describe('the statement, derived from what was paid and cancelled', () => {
  it('owes each paid installment its net premium × the rate fixed at the sale, in the month paid in Brasília', async () => {
    const march = await statementOf(db, horizonte, '2026-03', 1, '2026-11-24');
    const paid = march.lines.content.map((l) => `${l.nrApolice}/${l.numero}`);
    // 23:30 of 31/03 in Brasília is March (02:30Z of 01/04); 00:10 of 01/04 is April.
    expect(paid).toEqual([`${policyB}/1`, `${policyA}/1`, `${policyA}/2`]);
    for (const line of march.lines.content) {
      const sale = await db
        .selectFrom('policies as a')
        .innerJoin('quotes as q', 'q.id', 'a.quote_id')
        .select(['q.precificacao', 'q.comissao_centesimos', 'a.premio_total', 'a.id'])
        .where('a.nr_apolice', '=', line.nrApolice)
        .executeTakeFirstOrThrow();
      const first = await db
        .selectFrom('endorsements')
        .select('premio_anterior')
        .where('policy_id', '=', sale.id)
        .orderBy('id')
        .executeTakeFirst();
      const net = installmentNetPremium(
        line.valorParcela,
        (sale.precificacao as { netPremium: number }).netPremium,
        first?.premio_anterior ?? sale.premio_total,
      );
      expect(line.premioLiquido).toBe(net);
      expect(line.taxa).toBe(sale.comissao_centesimos);
      expect(line.comissao).toBe(commissionOf(net, sale.comissao_centesimos));
    }
    const total = march.lines.content.reduce((sum, l) => sum + l.comissao, 0);
    expect(march.balance).toMatchObject({ commissions: total, clawbacks: 0, payable: total });
    expect(march.closed).toBe(true);
    const april = await statementOf(db, horizonte, '2026-04', 1, '2026-11-24');
    expect(april.lines.content.map((l) => `${l.nrApolice}/${l.numero}`)).toEqual([`${policyA}/3`]);
  });

  it('claws back a cancellation’s commission in the month it was confirmed, and carries what is left negative', async () => {
    const refund = await db
      .selectFrom('refunds as r')
      .innerJoin('policies as a', 'a.id', 'r.policy_id')
      .select('r.estorno_comissao')
      .where('a.nr_apolice', '=', policyB)
      .executeTakeFirstOrThrow();
    expect(refund.estorno_comissao).toBeGreaterThan(0);
    const may = await statementOf(db, horizonte, '2026-05', 1, '2026-11-24');
    expect(may.clawbacks).toEqual([expect.objectContaining({ nrApolice: policyB, estorno: refund.estorno_comissao })]);
    expect(may.balance).toMatchObject({
      commissions: 0,
      clawbacks: refund.estorno_comissao,
      payable: 0,
      carriedOut: -refund.estorno_comissao,
    });
    // A quiet month after it still carries the debt.
    expect((await statementOf(db, horizonte, '2026-06', 1, '2026-11-24')).balance.carriedIn).toBe(-refund.estorno_comissao);
    // March (when B was paid) does not change.
    expect((await statementOf(db, horizonte, '2026-03', 1, '2026-11-24')).clawbacks).toEqual([]);
  });
});

describe('who sees which company’s commissions', () => {
  const extrato = (cnpj: string, month = '2026-03') => `/api/bff/v1/comissoes/extrato?empresa=${cnpj}&competencia=${month}`;

  it('shows a partner the company they act for, and nothing of another (404)', async () => {
    const own = await get(PARTNER, extrato(HORIZONTE));
    expect(own.status).toBe(200);
    expect(own.json.dado.lines.totalElements).toBe(3);
    expect((await get(PARTNER, extrato(VALE_VERDE))).status).toBe(404);
    expect((await get(PARTNER, extrato('99888777000166'))).status).toBe(404);
  });

  it('shows a partner admin both their companies, the insurer’s admin every one; the sub-delegated user may not open the module (403)', async () => {
    expect((await get(PARTNER_ADMIN, extrato(VALE_VERDE))).json.dado.lines.totalElements).toBe(1);
    expect((await get(PARTNER_ADMIN, extrato(HORIZONTE))).status).toBe(200);
    expect((await get(ADMIN, extrato(VALE_VERDE))).status).toBe(200);
    expect((await get(SUBAGENT, extrato(VALE_VERDE))).status).toBe(403);
  });

  it('refuses a malformed or future month with a pt-BR field error', async () => {
    const bad = await get(PARTNER, extrato(HORIZONTE, '2026-13'));
    expect(bad.status).toBe(400);
    expect(bad.json.erros.competencia[0]).toContain('Competência inválida');
    expect((await get(PARTNER, extrato(HORIZONTE, '2099-01'))).json.erros.competencia).toEqual([
      'A competência não pode ser posterior ao mês atual.',
    ]);
  });

  it('is hidden in production: the module’s pages are not found (the API asks the same rule)', async () => {
    const viewer = await viewerByEmail(db, ADMIN);
    for (const path of [
      '/v2/comissoes/extrato-comissoes',
      '/v2/comissoes/envio-nota',
      '/v2/comissoes/nota-fiscal',
      '/v2/comissoes/nota-fiscal/arquivo/1',
    ])
      expect([pageAccess(path, viewer, 'PRD'), pageAccess(path, viewer, 'TEST')]).toEqual(['not-found', 'allowed']);
  });
});

describe('sending the nota fiscal', () => {
  it('refuses an open month, a wrong amount, a file that is not a PDF or a nota’s XML — storing nothing', async () => {
    const payable = await payableOf(horizonte, '2026-03');
    const base = { empresa: HORIZONTE, competencia: '2026-03', numero: '1001', valor: payable };
    const refusals: [Record<string, string | number>, string, Uint8Array, number, string, string][] = [
      // The month the server is in (its clock's), whatever day the suite runs on.
      [{ ...base, competencia: monthOf(now()) }, 'nota.pdf', MINIMAL_PDF, 400, 'competencia', 'ainda não foi fechada'],
      [{ ...base, valor: payable + 1 }, 'nota.pdf', MINIMAL_PDF, 400, 'valor', 'difere do total do extrato'],
      [{ ...base, competencia: '2026-05', valor: 100 }, 'nota.pdf', MINIMAL_PDF, 400, 'valor', 'Não há comissões a faturar'],
      [base, 'nota.png', MINIMAL_PNG, 400, 'arquivo', 'envie o PDF ou o XML'],
      [base, 'nota.pdf', MINIMAL_PNG, 400, 'arquivo', 'envie o PDF ou o XML'],
      [base, 'nota.xml', new TextEncoder().encode('<svg><script>x</script></svg>'), 400, 'arquivo', 'não é de uma NF-e'],
      [base, 'nota.xml', new TextEncoder().encode('NFS-e 123, valor 24,04'), 400, 'arquivo', 'envie o PDF ou o XML'],
      [base, 'nota.xml', new Uint8Array([0x3c, 0x4e, 0xff, 0xfe, 0x3e]), 400, 'arquivo', 'não é um texto UTF-8'],
      [base, 'nota.xml', new TextEncoder().encode('<CompNfse><Nfse></CompNfse>'), 400, 'arquivo', 'malformado'],
      [
        base,
        'nota.xml',
        new TextEncoder().encode(nfseAbrasfXml({ valor: payable + 100, cnpj: HORIZONTE })),
        400,
        'arquivo',
        'difere do valor informado',
      ],
      [base, 'nota.xml', new TextEncoder().encode(nfseAbrasfXml({ valor: payable, cnpj: VALE_VERDE })), 400, 'arquivo', 'emitente'],
      [base, 'nota.pdf', new Uint8Array(0), 400, 'arquivo', 'vazio'],
      [{ ...base, numero: 'abc' }, 'nota.pdf', MINIMAL_PDF, 400, 'numero', 'número da nota'],
      [{ ...base, empresa: VALE_VERDE }, 'nota.pdf', MINIMAL_PDF, 404, '', 'Empresa não encontrada'],
    ];
    for (const [query, name, bytes, status, field, message] of refusals) {
      const answer = await sendNota(PARTNER, query, name, bytes);
      expect(answer.status, JSON.stringify(answer.json)).toBe(status);
      expect(answer.json.message).toContain(message);
      if (field) expect(answer.json.erros[field]?.[0]).toContain(message);
    }
    const tooLarge = await sendNota(PARTNER, base, 'nota.pdf', new Uint8Array(5 * 1024 * 1024 + 1));
    expect(tooLarge.status).toBe(413);
    expect(await notaRows()).toEqual([]);
    expect(storedFiles()).toEqual([]);
  });

  it('takes the month’s nota once: a second is refused, two at once leave one row and no orphan file', async () => {
    const march = await payableOf(horizonte, '2026-03');
    const sent = await sendNota(
      PARTNER,
      { empresa: HORIZONTE, competencia: '2026-03', numero: '1001', valor: march },
      'nota-marco.pdf',
      MINIMAL_PDF,
    );
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    expect(sent.json.dado).toMatchObject({
      competencia: '2026-03',
      valor: march,
      status: 'ENVIADA',
      mime: 'application/pdf',
      empresa: { cnpj: HORIZONTE },
    });
    const again = await sendNota(
      PARTNER,
      { empresa: HORIZONTE, competencia: '2026-03', numero: '1002', valor: march },
      'outra.pdf',
      MINIMAL_PDF,
    );
    expect(again.status).toBe(409);
    expect(again.json.message).toContain('Já existe uma nota fiscal desta empresa para março de 2026');

    const april = await payableOf(horizonte, '2026-04');
    const query = { empresa: HORIZONTE, competencia: '2026-04', numero: '1003', valor: april };
    const [one, two] = await Promise.all([
      sendNota(PARTNER, query, 'abril.xml', new TextEncoder().encode(nfseAbrasfXml({ valor: april, cnpj: HORIZONTE }))),
      sendNota(PARTNER_ADMIN, query, 'abril.pdf', MINIMAL_PDF),
    ]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    const rows = await notaRows();
    expect(rows.map((r) => r.competencia)).toEqual(['2026-03', '2026-04']);
    expect(storedFiles()).toEqual([...new Set(rows.map((r) => r.sha256))].sort());
  });

  it('is not sent by the insurer’s admin, and the sub-delegated user may not open the module', async () => {
    const query = { empresa: VALE_VERDE, competencia: '2026-03', numero: '7', valor: await payableOf(valeVerde, '2026-03') };
    expect((await sendNota(ADMIN, query, 'nota.pdf', MINIMAL_PDF)).status).toBe(403);
    expect((await sendNota(SUBAGENT, query, 'nota.pdf', MINIMAL_PDF)).status).toBe(403);
  });
});

describe('the insurer’s decision and the downloads', () => {
  it('lets only the ADMIN approve, refuse with a reason (the month may then be sent again) and record the payment', async () => {
    const [march, april] = await notaRows();
    const decide = (email: string, id: number, body: unknown) => post(email, `/api/bff/v1/comissoes/notas/${id}/decisao`, body);
    expect((await decide(PARTNER, march!.id, { decisao: 'APROVAR' })).status).toBe(403);
    expect((await decide(SUBAGENT, march!.id, { decisao: 'APROVAR' })).status).toBe(403);
    const noReason = await decide(ADMIN, march!.id, { decisao: 'RECUSAR' });
    expect(noReason.status).toBe(400);
    expect(noReason.json.erros.motivo).toEqual(['Informe o motivo da recusa.']);
    const refused = await decide(ADMIN, march!.id, { decisao: 'RECUSAR', motivo: 'Número da nota ilegível.' });
    expect(refused.json.dado).toMatchObject({ status: 'RECUSADA', motivo: 'Número da nota ilegível.' });
    expect((await decide(ADMIN, march!.id, { decisao: 'APROVAR' })).status).toBe(409);

    const resent = await sendNota(
      PARTNER,
      { empresa: HORIZONTE, competencia: '2026-03', numero: '1004', valor: march!.valor },
      'nota-marco-2.pdf',
      MINIMAL_PDF,
    );
    expect(resent.status).toBe(200);
    expect((await decide(ADMIN, resent.json.dado.id, { decisao: 'PAGAR' })).status).toBe(409);
    expect((await decide(ADMIN, resent.json.dado.id, { decisao: 'APROVAR' })).json.dado.status).toBe('APROVADA');
    const paid = await decide(ADMIN, resent.json.dado.id, { decisao: 'PAGAR' });
    expect(paid.json.dado).toMatchObject({ status: 'PAGA', pagaEm: expect.any(String) });
    expect((await decide(ADMIN, april!.id, { decisao: 'APROVAR' })).json.dado.status).toBe('APROVADA');
    expect((await decide(ADMIN, 999_999, { decisao: 'APROVAR' })).status).toBe(404);

    const listed = await get(PARTNER, '/api/bff/v1/comissoes/notas');
    expect(listed.json.dado.content.map((n: { status: string }) => n.status)).toEqual(['PAGA', 'APROVADA', 'RECUSADA']);
  });

  it('downloads a nota for whoever sees its company, and is a 404 to anyone else', async () => {
    const valeVerdeNota = await sendNota(
      PARTNER_ADMIN,
      { empresa: VALE_VERDE, competencia: '2026-03', numero: '55', valor: await payableOf(valeVerde, '2026-03') },
      'vale-verde.pdf',
      MINIMAL_PDF,
    );
    expect(valeVerdeNota.status).toBe(200);
    const download = async (email: string, id: number) => {
      await changesSettled(db);
      const response = await api.handle(
        new Request(`http://portal.test/api/bff/v1/comissoes/notas/${id}/arquivo`, { headers: await as(email) }),
        {
          ip: '10.0.0.1',
          db: async () => db,
        },
      );
      return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
    };
    const own = await download(PARTNER_ADMIN, valeVerdeNota.json.dado.id);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-disposition')).toContain('attachment; filename="vale-verde.pdf"');
    expect(Buffer.from(own.bytes).equals(Buffer.from(MINIMAL_PDF))).toBe(true);
    expect((await download(PARTNER, valeVerdeNota.json.dado.id)).status).toBe(404);
    expect((await download(ADMIN, valeVerdeNota.json.dado.id)).status).toBe(200);
    const partnerList = await get(PARTNER, '/api/bff/v1/comissoes/notas');
    expect(partnerList.json.dado.content.every((n: { empresa: { cnpj: string } }) => n.empresa.cnpj === HORIZONTE)).toBe(true);
  });

  it('pages the notas 20 at a time, newest first, within the scope and its filters', async () => {
    const valeVerdeId = (await db.selectFrom('companies').select('id').where('cnpj', '=', VALE_VERDE).executeTakeFirstOrThrow()).id;
    const sender = (await db.selectFrom('users').select('id').where('email', '=', PARTNER_ADMIN).executeTakeFirstOrThrow()).id;
    // 24 months of 2023 and 2024, sent one per day from 2025-01-01 (metadata only: the list reads no file).
    const months = Array.from({ length: 24 }, (_, i) => `${2023 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
    const inserted = await db
      .insertInto('notas_fiscais')
      .values(
        months.map((competencia, i) => ({
          company_id: valeVerdeId,
          competencia,
          numero: String(1000 + i),
          valor: 100_00,
          nome: `nf-${competencia}.pdf`,
          mime: 'application/pdf' as const,
          tamanho: 10,
          sha256: '0'.repeat(64),
          user_id: sender,
          created_at: new Date(Date.UTC(2025, 0, 1 + i, 12)),
        })),
      )
      .returning('id')
      .execute();
    try {
      const byCompany = `/api/bff/v1/comissoes/notas?empresa=${VALE_VERDE}`;
      const first = await get(PARTNER_ADMIN, byCompany);
      const total = first.json.dado.totalElements as number;
      expect(total).toBeGreaterThanOrEqual(25); // the 24 and the nota of the test before
      expect(first.json.dado).toMatchObject({ page: 1, totalPages: Math.ceil(total / 20) });
      expect(first.json.dado.content).toHaveLength(20);
      const second = await get(PARTNER_ADMIN, `${byCompany}&page=2`);
      expect(second.json.dado.content).toHaveLength(total - 20);
      // Newest first across the pages, and no nota twice.
      const ids = [...first.json.dado.content, ...second.json.dado.content].map((n: { id: number }) => n.id);
      expect(new Set(ids).size).toBe(total);
      expect(second.json.dado.content.at(-1).competencia).toBe('2023-01');
      // The partner of Horizonte sees none of them, on any page.
      const partner = await get(PARTNER, '/api/bff/v1/comissoes/notas?page=2');
      expect(partner.json.dado.content).toEqual([]);
      expect((await get(PARTNER_ADMIN, `${byCompany}&page=0`)).status).toBe(400);
    } finally {
      await db
        .deleteFrom('notas_fiscais')
        .where(
          'id',
          'in',
          inserted.map((r) => r.id),
        )
        .execute();
    }
  });
});

describe('the income statement', () => {
  it('lists the years each beneficiary the viewer acts for received commissions', async () => {
    const years = await incomeYearsOf(db, await incomeScopeFor(db, await viewerByEmail(db, PARTNER_ADMIN)), '2026-11-24');
    expect(years.map((y) => [y.beneficiary.taxId, y.years])).toEqual([
      [VALE_VERDE, [2026]],
      [HORIZONTE, [2026]],
    ]);
    const listed = await get(PARTNER_ADMIN, '/api/bff/v1/informes-rendimentos');
    expect(listed.json.dado).toHaveLength(2);
    // The partner lacks INFORME_RENDIMENTO: the informe page (and its API) is not theirs.
    expect((await get(PARTNER, '/api/bff/v1/informes-rendimentos')).status).toBe(403);
  });

  it('opens the PDF of a year with the months, the tax withheld and the totals of the statements', async () => {
    const viewer = await viewerByEmail(db, PARTNER_ADMIN);
    const href = incomePdfHref('v2', horizonte, 2026);
    expect(href).toBe(`/v2/relatorios/pdf/informe-rendimentos/${HORIZONTE}/${nameSlug(horizonte.name)}/2026`);
    const request = { type: 'informe-rendimentos', nmCpfCnpj: HORIZONTE, nmPrestador: nameSlug(horizonte.name), nrAno: '2026' };
    const outcome = await incomePdfOutcome(db, viewer, request, instant('2026-11-24T12:00:00Z'));
    expect(outcome?.kind).toBe('pdf');
    const text = (await pdfText(new Uint8Array(await (outcome as { response: Response }).response.arrayBuffer()))).replace(/\s+/g, ' ');
    const months = (await beneficiaryMonths(db, horizonte)).filter((m) => m.payable > 0);
    const gross = months.reduce((sum, m) => sum + m.payable, 0);
    const withheld = months.reduce((sum, m) => sum + irrfOf('PJ', m.payable), 0);
    expect(text).toContain('Comprovante Anual de Rendimentos Pagos ou Creditados e de Retenção de Imposto de Renda na Fonte');
    expect(text).toContain('Seguradora Demo S.A.');
    expect(text).toContain('11.222.333/0001-81');
    expect(text).toContain(`Total ${formatBRL(gross)}`);
    expect(withheld).toBe(0); // 1,5 % of these small months is under R$ 10,00: not withheld
    expect(text).toContain('Março/2026');
  });

  it('is a 404 for a CPF/CNPJ the viewer does not act for, a wrong name or year; a year without income says so', async () => {
    // A sub-delegated user granted the informe acts for Vale Verde only.
    const sub = await viewerByEmail(db, SUBAGENT);
    await db.insertInto('user_operations').values({ user_id: sub.user.idUsuario, operation: 'INFORME_RENDIMENTO' }).execute();
    // Plain SQL: the cached principal is dropped when the database's notice arrives (PostgreSQL: a moment later).
    await changesSettled(db);
    const subViewer = await viewerByEmail(db, SUBAGENT);
    const at = instant('2026-11-24T12:00:00Z');
    const ask = (viewer: typeof subViewer, taxId: string, name: string, year: string) =>
      incomePdfOutcome(db, viewer, { type: 'informe-rendimentos', nmCpfCnpj: taxId, nmPrestador: nameSlug(name), nrAno: year }, at);
    expect((await ask(subViewer, VALE_VERDE, valeVerde.name, '2026'))?.kind).toBe('pdf');
    expect(await ask(subViewer, HORIZONTE, horizonte.name, '2026')).toBeUndefined();
    expect(await ask(subViewer, VALE_VERDE, 'Outra Empresa', '2026')).toBeUndefined();
    expect(await ask(subViewer, VALE_VERDE, valeVerde.name, '2027')).toBeUndefined();
    expect(await ask(subViewer, VALE_VERDE, valeVerde.name, '1999')).toBeUndefined();
    expect(await ask(await viewerByEmail(db, PARTNER), HORIZONTE, horizonte.name, '2026')).toBeUndefined();
    expect(await ask(subViewer, VALE_VERDE, valeVerde.name, '2025')).toEqual({
      kind: 'empty',
      href: `/v2/informe-rendimentos?documento=${VALE_VERDE}&ano=2025`,
    });
    // The legacy admin group opens any beneficiary's, in its own generation's address.
    const legacyAdmin = await viewerByEmail(db, 'admin@legado.demo');
    expect((await ask(legacyAdmin, HORIZONTE, horizonte.name, '2026'))?.kind).toBe('pdf');
    expect(await ask(await viewerByEmail(db, 'vendedor@legado.demo'), HORIZONTE, horizonte.name, '2026')).toBeUndefined();
  });
});

describe('the income statement of a person', () => {
  it('is the seller’s own, by CPF, with the progressive table withheld: theirs and the insurer’s, nobody else’s', async () => {
    // Sales made as a person (no company): paid at once by Pix in June 2026 at the highest remuneration
    // an offer may carry, so that the month's commission is above the table's exempt bracket.
    for (const day of ['03', '10', '17']) {
      const sale = await sellResidential(db, {
        respostas: { ...HOUSE_OF_SIZE, valorImovel: 1_500_000_00 },
        contratacao: { formaPagamento: 'pix', parcelas: 1 },
        at: instant(`2026-06-${day}T13:00:00Z`),
      });
      const policy = await db
        .selectFrom('policies')
        .select(['id', 'quote_id'])
        .where('nr_apolice', '=', sale.nrApolice!)
        .executeTakeFirstOrThrow();
      await db
        .updateTable('quotes')
        .set({ company_id: null, point_of_sale_id: null, comissao_centesimos: 10_000 })
        .where('id', '=', policy.quote_id)
        .execute();
      await db.updateTable('policies').set({ company_id: null, point_of_sale_id: null }).where('id', '=', policy.id).execute();
      const charge = await currentCharge(db, { kind: 'all' }, 'v2', sale.nrApolice!, 1);
      await payCharge(
        db,
        { code: charge.pixCopiaECola!, externalId: `pf-${sale.nrApolice}`, origem: 'BANCO_DEMO' },
        instant(`2026-06-${day}T18:00:00Z`),
      );
    }

    // Both sellers of Horizonte are granted the informe (INFORME_RENDIMENTO): each sees the company's and their own.
    for (const email of [PARTNER, 'igor.pereira@parceiro.demo']) {
      const { id } = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      await db.insertInto('user_operations').values({ user_id: id, operation: 'INFORME_RENDIMENTO' }).execute();
    }
    await changesSettled(db);
    const partner = await viewerByEmail(db, PARTNER);
    const cpf = (await db.selectFrom('users').select('cpf').where('email', '=', PARTNER).executeTakeFirstOrThrow()).cpf!;
    const today = '2026-11-24';
    const own = (await incomeYearsOf(db, await incomeScopeFor(db, partner), today)).find((y) => y.beneficiary.kind === 'PF');
    expect(own).toMatchObject({ beneficiary: { kind: 'PF', taxId: cpf, name: 'Eduarda Lima' }, years: [2026] });
    const june = (await beneficiaryMonths(db, own!.beneficiary)).find((m) => m.month === '2026-06')!;
    const withheld = irrfOf('PF', june.payable);
    expect(withheld).toBeGreaterThan(0);

    const at = instant('2026-11-24T12:00:00Z');
    const ask = async (email: string) =>
      incomePdfOutcome(
        db,
        await viewerByEmail(db, email),
        { type: 'informe-rendimentos', nmCpfCnpj: cpf, nmPrestador: nameSlug('Eduarda Lima'), nrAno: '2026' },
        at,
      );
    const outcome = await ask(PARTNER);
    expect(outcome?.kind).toBe('pdf');
    const text = (await pdfText(new Uint8Array(await (outcome as { response: Response }).response.arrayBuffer()))).replace(/\s+/g, ' ');
    expect(text).toContain('Pessoa física beneficiária dos rendimentos');
    expect(text).toContain('Eduarda Lima');
    expect(text).toContain(`${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`);
    expect(text).toContain(formatBRL(june.payable));
    expect(text).toContain(formatBRL(withheld));
    // Another seller of the same company, and its partner admin, do not open a person's statement.
    expect(await ask('igor.pereira@parceiro.demo')).toBeUndefined();
    expect(await ask(PARTNER_ADMIN)).toBeUndefined();
    expect((await ask(ADMIN))?.kind).toBe('pdf');
  });
});

describe('the upload under random input, signed in', () => {
  it('never answers 5xx nor stores anything it refuses', async () => {
    const rows = await notaRows();
    const files = storedFiles();
    const march = await payableOf(horizonte, '2026-03');
    const value = fc.oneof(hostileText(), fc.constantFrom('2026-03', '2026-11', HORIZONTE, VALE_VERDE, String(march), '0', '-1', '1e3'));
    await fc.assert(
      fc.asyncProperty(
        fc.record({ empresa: value, competencia: value, numero: value, valor: value }, { requiredKeys: [] }),
        fc.oneof(hostileText(), fc.constantFrom('nota.pdf', 'nota.xml', 'a/b.pdf', '')),
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          fc.constant(MINIMAL_PDF),
          fc.string({ maxLength: 200 }).map((t) => new TextEncoder().encode(`<NFe>${t}</NFe>`)),
        ),
        async (query, name, bytes) => {
          const safeQuery = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Record<string, string>;
          let encodedName: string;
          try {
            encodedName = encodeURIComponent(name);
          } catch {
            encodedName = '%ED%B3%BF';
          }
          await changesSettled(db);
          const response = await api.handle(
            new Request(`http://portal.test/api/bff/v1/comissoes/notas?${new URLSearchParams(safeQuery)}`, {
              method: 'POST',
              headers: { ...(await as(PARTNER)), 'content-type': 'application/octet-stream', 'x-nome-arquivo': encodedName },
              body: bytes as Uint8Array<ArrayBuffer>,
            }),
            { ip: '10.0.0.1', db: async () => db },
          );
          const text = await response.text();
          expect(response.status, text).toBeLessThan(500);
          expect(text).not.toMatch(/\n\s+at |node_modules/);
        },
      ),
      { numRuns: 150 },
    );
    expect(await notaRows()).toEqual(rows);
    expect(storedFiles()).toEqual(files);
  }, 60_000);
});
