import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { DB } from '../../src/server/db';
import { openDatabase } from '../../src/server/boot/database';
import { freshDatabase } from '../fixtures/db';
import { cancelWholePolicy, sellResidential, viewerByEmail } from '../fixtures/selling';
import { apiClient, demoTokens } from '../fixtures/api';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { queueDueReminders } from '../../src/server/services/after-sale/insured-reminders';
import { insuredLinkOf, setOptOut } from '../../src/server/services/after-sale/insured-links';
import { currentCharge, payCharge } from '../../src/server/services/after-sale/charges';
import { scopeFor } from '../../src/server/services/identity/scope';
import { BOLETO_LINK_DAYS, OVERDUE_SECOND_COPY_DAYS, SEND_LIMITS, whatsappHref } from '../../src/lib/insured-messages';
import { now, useManualClock as manualClock } from '../../src/server/clock';
import { addDays } from '../../src/lib/calendar';
import { formatIsoDate } from '../../src/lib/format';
import { formatBRL } from '../../src/lib/products/money';

/**
 * Issue 31, the insured kept informed: each reminder queued once — two instances at once, a turn
 * after a restart — and never for what is paid, cancelled or without an e-mail; the opt-out stops the
 * reminders and not the notices the insurer owes; the public links expire; the policy page's sends
 * keep to the viewer's scope, refuse a bad address in pt-BR and are limited.
 */
const SOLD = new Date('2026-11-23T13:00:00-03:00');
const at = (iso: string) => new Date(`${iso}T09:00:00-03:00`);
const BIG = 100_000; // a turn in a test decides every due reminder of the demo too
let db: DB;
let close: () => Promise<void>;
let url: string | undefined;
let nrApolice: string;
let policyId: number;

beforeAll(async () => {
  ({ db, close, url } = await freshDatabase());
  nrApolice = (await sellResidential(db, { at: SOLD })).nrApolice!;
  policyId = (await db.selectFrom('policies').select('id').where('nr_apolice', '=', nrApolice).executeTakeFirstOrThrow()).id;
});
afterAll(() => close());

const installment = (numero: number) =>
  db.selectFrom('installments').selectAll().where('policy_id', '=', policyId).where('numero', '=', numero).executeTakeFirstOrThrow();
const remindersOf = (tipo: string) =>
  db
    .selectFrom('insured_reminders')
    .selectAll()
    .where('policy_id', '=', policyId)
    .where('tipo', '=', tipo as 'BOLETO')
    .execute();
const mailOf = (template: string, nr = nrApolice) =>
  db.selectFrom('emails').selectAll().where('template', '=', template).where('text_body', 'like', `%${nr}%`).orderBy('id').execute();
const tokenOf = (secrets: Record<string, string> | null, name: string) => /\/([\w-]{43})$/.exec(secrets?.[name] ?? '')?.[1] ?? '';

describe('the boleto reminder, three days before the due date', () => {
  it('is not due four days before', async () => {
    const { vencimento } = await installment(1);
    expect(vencimento).toBe('2026-12-10');
    await queueDueReminders(db, at('2026-12-06'), BIG);
    expect(await remindersOf('BOLETO')).toHaveLength(0);
  });

  it('is queued once when two instances run the job at the same moment, and not again after a restart', async () => {
    // A second instance: another connection pool over the same PostgreSQL (PGlite has one process).
    const other = url ? await openDatabase({ databaseUrl: url }) : db;
    try {
      await Promise.all([queueDueReminders(db, at('2026-12-07'), BIG), queueDueReminders(other, at('2026-12-07'), BIG)]);
    } finally {
      if (other !== db) await other.destroy();
    }
    expect(await remindersOf('BOLETO')).toMatchObject([
      { resultado: 'ENVIADO', prazo: '2026-12-10', email: DEMO_INSURED.residencial.email },
    ]);
    // "Restarted": a new connection, the next days of the window.
    const restarted = url ? await openDatabase({ databaseUrl: url }) : db;
    try {
      await queueDueReminders(restarted, at('2026-12-08'), BIG);
      await queueDueReminders(restarted, at('2026-12-10'), BIG);
    } finally {
      if (restarted !== db) await restarted.destroy();
    }
    const mail = await mailOf('lembrete-vencimento');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.to_address).toBe(DEMO_INSURED.residencial.email);
    expect(mail[0]!.subject).toContain('1ª parcela');
    // The links are secrets of the message: the bodies hold placeholders.
    expect(mail[0]!.text_body).not.toMatch(/boleto-digital\/[\w-]{43}/);
    expect(tokenOf(mail[0]!.segredos, 'link')).toHaveLength(43);
    expect(tokenOf(mail[0]!.segredos, 'descadastro')).toHaveLength(43);
  });

  it('opens the boleto for BOLETO_LINK_DAYS, then the link is expired', async () => {
    const [mail] = await mailOf('lembrete-vencimento');
    const token = tokenOf(mail!.segredos, 'link');
    const opened = await insuredLinkOf(db, 'BOLETO', token, at('2026-12-07'));
    expect(opened).toMatchObject({ state: 'valid', link: { nr_apolice: nrApolice } });
    // Written by the turn of 07/12 (09:00): valid for BOLETO_LINK_DAYS from then.
    const expiry = at('2026-12-07').getTime() + BOLETO_LINK_DAYS * 86_400_000;
    expect((await insuredLinkOf(db, 'BOLETO', token, new Date(expiry - 1000))).state).toBe('valid');
    expect(await insuredLinkOf(db, 'BOLETO', token, new Date(expiry))).toEqual({ state: 'expired' });
    expect(await insuredLinkOf(db, 'BOLETO', `${token.slice(0, 42)}x`, at('2026-12-07'))).toEqual({ state: 'unknown' });
    // A LEMBRETES token does not open a boleto.
    expect(await insuredLinkOf(db, 'BOLETO', tokenOf(mail!.segredos, 'descadastro'), at('2026-12-07'))).toEqual({ state: 'unknown' });
  });

  it('is not sent for an installment paid before its window', async () => {
    const viewer = await viewerByEmail(db, 'parceiro@parceiro.demo');
    const charge = await currentCharge(db, await scopeFor(db, viewer, 'BOLETOS'), 'v2', nrApolice, 2);
    await payCharge(db, { code: charge.linhaDigitavel, externalId: 'teste:lembrete-2', origem: 'BANCO_DEMO' }, at('2027-01-05'));
    expect((await installment(2)).status).toBe('PAGA');
    await queueDueReminders(db, at('2027-01-08'), BIG);
    expect((await remindersOf('BOLETO')).map((r) => r.prazo)).toEqual(['2026-12-10']);
  });
});

describe('the overdue notice', () => {
  it('carries a 2ª via the portal issued, due three days later, once', async () => {
    await queueDueReminders(db, at('2026-12-11'), BIG);
    await queueDueReminders(db, at('2026-12-12'), BIG);
    const [reminder, ...more] = await remindersOf('ATRASO');
    expect(more).toHaveLength(0);
    expect(reminder).toMatchObject({ resultado: 'ENVIADO', prazo: '2026-12-10' });
    const charges = await db
      .selectFrom('charges')
      .selectAll()
      .where('installment_id', '=', (await installment(1)).id)
      .orderBy('id')
      .execute();
    const second = charges.at(-1)!;
    expect(second).toMatchObject({ status: 'ATIVA', vencimento: '2026-12-14', user_id: null });
    expect(second.total).toBeGreaterThan(second.valor);
    const mail = await mailOf('aviso-atraso');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text_body).toContain('14/12/2026');
  });
});

describe('the opt-out (LGPD)', () => {
  it('stops the reminders by the insured’s document and e-mail, not the notices the insurer owes', async () => {
    const [mail] = await mailOf('lembrete-vencimento');
    const link = await insuredLinkOf(db, 'LEMBRETES', tokenOf(mail!.segredos, 'descadastro'), at('2026-12-11'));
    if (link.state !== 'valid') throw new Error('link inválido');
    expect(link.link.email).toBe(DEMO_INSURED.residencial.email);
    await setOptOut(db, link.link, true, at('2026-12-11'));
    const stored = await db.selectFrom('reminder_opt_outs').select('chave').orderBy('chave').execute();
    expect(stored.map((r) => r.chave)).toEqual(['doc:27418596391', `email:${DEMO_INSURED.residencial.email}`]);

    // Installment 3 falls due on 10/02/2027: decided, not sent.
    await queueDueReminders(db, at('2027-02-08'), BIG);
    expect((await remindersOf('BOLETO')).find((r) => r.prazo === '2027-02-10')).toMatchObject({ resultado: 'DESCADASTRADO' });
    expect((await mailOf('lembrete-vencimento')).filter((m) => m.subject.includes('3ª parcela'))).toHaveLength(0);

    // Reversible: back in, the next reminder goes.
    await setOptOut(db, link.link, false, at('2027-02-08'));
    await queueDueReminders(db, at('2027-03-08'), BIG);
    expect((await mailOf('lembrete-vencimento')).filter((m) => m.subject.includes('4ª parcela'))).toHaveLength(1);
  });
});

describe('the end of term', () => {
  it('is told 30 days before, with the partner’s contact, once; never for a cancelled policy', async () => {
    const { fim_vigencia } = await db.selectFrom('policies').select('fim_vigencia').where('id', '=', policyId).executeTakeFirstOrThrow();
    expect(fim_vigencia).toBe('2027-11-23');
    await queueDueReminders(db, at('2027-10-23'), BIG);
    await queueDueReminders(db, at('2027-10-24'), BIG);
    expect(await remindersOf('FIM_VIGENCIA')).toMatchObject([{ resultado: 'ENVIADO', prazo: '2027-11-23' }]);
    const mail = await mailOf('aviso-fim-vigencia');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text_body).toMatch(/e-mail \S+@/);

    // Another policy, cancelled (with the insured opted out: the cancellation notice still goes).
    const other = (await sellResidential(db, { at: SOLD })).nrApolice!;
    await db.insertInto('reminder_opt_outs').values({ chave: 'doc:27418596391' }).execute();
    await cancelWholePolicy(db, 'parceiro@parceiro.demo', other, new Date('2026-11-24T15:00:00Z'));
    const notice = await db
      .selectFrom('emails')
      .select('template')
      .where('template', '=', 'cancelamento-segurado')
      .where('subject', 'like', `%${other}%`)
      .execute();
    expect(notice).toHaveLength(1);
    const otherId = (await db.selectFrom('policies').select('id').where('nr_apolice', '=', other).executeTakeFirstOrThrow()).id;
    await queueDueReminders(db, at('2027-10-23'), BIG);
    expect(await db.selectFrom('insured_reminders').select('id').where('policy_id', '=', otherId).execute()).toHaveLength(0);
  });
});

describe('an insured without e-mail', () => {
  it('is decided once as SEM_EMAIL and never mailed', async () => {
    const nr = (await sellResidential(db, { at: SOLD })).nrApolice!;
    const row = await db.selectFrom('policies').select('id').where('nr_apolice', '=', nr).executeTakeFirstOrThrow();
    await db
      .updateTable('policies')
      .set({ contato: JSON.stringify({ email: '', telefone: '', endereco: null }) })
      .where('id', '=', row.id)
      .execute();
    await queueDueReminders(db, at('2026-12-07'), BIG);
    const reminders = await db.selectFrom('insured_reminders').selectAll().where('policy_id', '=', row.id).execute();
    expect(reminders).toMatchObject([{ tipo: 'BOLETO', resultado: 'SEM_EMAIL', email: null }]);
  });
});

describe('sending from the policy page', () => {
  const call = () => apiClient(db);
  let as: ReturnType<typeof demoTokens>;
  let sold: string;
  beforeAll(async () => {
    as = demoTokens(call());
    sold = (await sellResidential(db)).nrApolice!;
  });
  const send = async (email: string, nr: string, body: unknown, base = 'bff') =>
    call()('POST', `/api/${base}/v1/apolices/${nr}/envios`, { body, headers: await as(email) });

  it('sends the boleto and Pix of an open installment to the insured, logged', async () => {
    const { status, json } = await send('parceiro@parceiro.demo', sold, { tipo: 'boleto', numero: 1 });
    expect(status).toBe(200);
    expect((json.dado ?? json.resultado).envio.para).toBe(DEMO_INSURED.residencial.email);
    const [mail] = await db
      .selectFrom('emails')
      .selectAll()
      .where('template', '=', 'boleto-segurado')
      .where('subject', 'like', `%${sold}%`)
      .execute();
    expect(tokenOf(mail!.segredos, 'link')).toHaveLength(43);
    const log = await db
      .selectFrom('access_events')
      .select(['detalhe', 'registro'])
      .where('registro', '=', sold)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(log.detalhe).toContain('Boleto e Pix enviados por e-mail ao segurado');
  });

  it('sends the policy to another address, and refuses a bad one with a pt-BR field error', async () => {
    const ok = await send('parceiro@parceiro.demo', sold, { tipo: 'apolice', email: ' Outra.Pessoa@Exemplo.com ' });
    expect(ok.status).toBe(200);
    expect((ok.json.dado ?? ok.json.resultado).envio.para).toBe('outra.pessoa@exemplo.com');
    const bad = await send('parceiro@parceiro.demo', sold, { tipo: 'apolice', email: 'não é e-mail' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain('E-mail inválido');
  });

  it('is the 404 for a policy outside the viewer’s scope (or of the other generation)', async () => {
    expect((await send('vendedor@legado.demo', sold, { tipo: 'apolice' }, 'plataforma')).status).toBe(404);
    expect((await send('parceiro@parceiro.demo', '99999999999', { tipo: 'apolice' })).status).toBe(404);
  });

  it('makes a WhatsApp link carrying an expiring boleto link', async () => {
    const { status, json } = await call()('POST', `/api/bff/v1/apolices/${sold}/link-whatsapp`, {
      body: { tipo: 'boleto', numero: 1 },
      headers: await as('parceiro@parceiro.demo'),
    });
    expect(status).toBe(200);
    expect((json.dado ?? json.resultado).link.startsWith(whatsappHref(''))).toBe(true);
    expect(decodeURIComponent((json.dado ?? json.resultado).link)).toMatch(/\/boleto-digital\/[\w-]{43}$/);
  });

  it('is limited per policy', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < SEND_LIMITS.perPolicy.limit; i++)
      statuses.push((await send('parceiro@parceiro.demo', sold, { tipo: 'apolice' })).status);
    expect(statuses).toContain(429);
  });
});

describe('sending an overdue installment from the policy page (issue 42 item 16)', () => {
  it('issues its 2ª via with the message, asked for by the sender, once while it is payable; logged', async () => {
    const clock = manualClock(Date.now());
    onTestFinished(() => clock.restore());
    const nr = (await sellResidential(db, { at: now() })).nrApolice!;
    const first = await db
      .selectFrom('installments as i')
      .innerJoin('policies as a', 'a.id', 'i.policy_id')
      .select(['i.id', 'i.vencimento'])
      .where('a.nr_apolice', '=', nr)
      .where('i.numero', '=', 1)
      .executeTakeFirstOrThrow();
    // Two days after its due day, in the morning in Brasília: overdue, nothing payable.
    const today = addDays(first.vencimento, 2);
    clock.advance(new Date(`${today}T09:00:00-03:00`).getTime() - now().getTime());
    const call = apiClient(db);
    let as = demoTokens(call);
    const partner = await viewerByEmail(db, 'parceiro@parceiro.demo');
    const chargesOf = () => db.selectFrom('charges').selectAll().where('installment_id', '=', first.id).orderBy('id').execute();
    const logOf = async () =>
      (await db.selectFrom('access_events').select('detalhe').where('registro', '=', nr).orderBy('id', 'desc').executeTakeFirstOrThrow())
        .detalhe;
    const send = async (path: 'envios' | 'link-whatsapp') => {
      const { status, json } = await call('POST', `/api/bff/v1/apolices/${nr}/${path}`, {
        body: { tipo: 'boleto', numero: 1 },
        headers: await as('parceiro@parceiro.demo'),
      });
      expect(status, JSON.stringify(json)).toBe(200);
      return json.dado ?? json.resultado;
    };

    await send('envios');
    const charges = await chargesOf();
    const second = charges.at(-1)!;
    expect(second).toMatchObject({
      status: 'ATIVA',
      vencimento: addDays(today, OVERDUE_SECOND_COPY_DAYS),
      user_id: partner.user.idUsuario,
    });
    expect(second.total).toBeGreaterThan(second.valor);
    expect(charges.filter((c) => c.status === 'SUBSTITUIDA')).toHaveLength(1);
    const [mail] = await mailOf('boleto-segurado', nr);
    expect(mail!.text_body).toContain(formatIsoDate(second.vencimento));
    expect(mail!.text_body).toContain(formatBRL(second.total));
    expect(await logOf()).toContain(`parcela 1, 2ª via emitida com vencimento em ${formatIsoDate(second.vencimento)}, para `);

    // Sent again, by e-mail and by WhatsApp, while that 2ª via is payable: the same 2ª via, no other.
    await send('envios');
    expect(await logOf()).not.toContain('2ª via emitida');
    const whatsapp = await send('link-whatsapp');
    expect(whatsapp.texto).toContain(`vencimento em ${formatIsoDate(second.vencimento)}`);
    expect((await chargesOf()).map((c) => c.id)).toEqual(charges.map((c) => c.id));

    // Once that 2ª via has fallen due unpaid, the next send issues another.
    clock.advance((OVERDUE_SECOND_COPY_DAYS + 1) * 86_400_000);
    as = demoTokens(call); // days later: a new sign-in
    await send('envios');
    const later = await chargesOf();
    expect(later).toHaveLength(charges.length + 1);
    expect(later.at(-1)).toMatchObject({ status: 'ATIVA', vencimento: addDays(today, 2 * OVERDUE_SECOND_COPY_DAYS + 1) });
  });
});
