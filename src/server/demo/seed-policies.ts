import type { DB } from '../db/index';
import { sellableOffers, sellableOffersV1 } from '../services/network/offers';
import { findUserByEmail, loadV1User, loadV2User } from '../services/identity/principals';
import { createQuote, saveStep, sendProposal, type Seller } from '../services/selling/quotes';
import { sellerFromV1, sellerFromV2 } from '../services/selling/sellers';
import { decideProposal } from '../services/after-sale/acceptance';
import { currentCharge, payCharge } from '../services/after-sale/charges';
import type { OfferToQuote } from '../services/selling/quotes';
import { earliestDueDay } from '../../lib/contracting';
import { brasiliaDay } from '../../lib/format';
import { cancellationContext, confirmCancellation, saveCoverages, saveReason } from '../services/after-sale/cancellation';

/**
 * Demo after-sale data (issue 13), so every screen of Apólices, 2ª via and payments shows something on
 * a first sign-in: sold through the real services at past instants — acceptance, issuance, due dates
 * and payments follow their rules, nothing is inserted by hand. parceiro@parceiro.demo gets a policy
 * with an installment paid and one overdue, a policy paid up, a proposal in analysis with its clock
 * running and one waiting for documents; vendedor@legado.demo a legacy policy with an open boleto; and
 * each of them a policy sold 335 days ago, ending in about 30 days: the renewals list's (issue 31), and
 * one cancelled by the insured with its refund owed: the refunds queue's and the ledger's (issue 31).
 */
const DAY_MS = 86_400_000;

const person = (nome: string, cpf: string, email: string, telefone: string, cidade: string, uf: string, cep: string) => ({
  tipoPessoa: 'PF',
  nome,
  cpf,
  dataNascimento: '1982-07-19',
  email,
  telefone,
  endereco: { cep, logradouro: 'Rua das Acácias', numero: '45', bairro: 'Centro', cidade, uf },
});

const INSURED = {
  atrasada: person(
    'Fernanda Lima Souza',
    '987.330.107-06',
    'fernanda.souza@exemplo.com.br',
    '(11) 97777-1234',
    'Campinas',
    'SP',
    '13010-111',
  ),
  quitada: person(
    'Eduardo Martins Reis',
    '108.731.173-01',
    'eduardo.reis@exemplo.com.br',
    '(19) 98888-2345',
    'Piracicaba',
    'SP',
    '13400-010',
  ),
  analise: person(
    'Sérgio Almeida Prado',
    '683.860.069-27',
    'sergio.prado@exemplo.com.br',
    '(48) 99999-3456',
    'Florianópolis',
    'SC',
    '88010-400',
  ),
  documentos: person(
    'Lívia Campos Teixeira',
    '348.702.626-06',
    'livia.teixeira@exemplo.com.br',
    '(71) 98111-4567',
    'Salvador',
    'BA',
    '40020-000',
  ),
  cancelada: person(
    'Renata Oliveira Duarte',
    '417.256.380-53',
    'renata.duarte@exemplo.com.br',
    '(31) 98333-6789',
    'Belo Horizonte',
    'MG',
    '30110-010',
  ),
  canceladaLegado: person(
    'Paulo Henrique Vieira',
    '629.384.150-60',
    'paulo.vieira@exemplo.com.br',
    '(41) 98444-7890',
    'Curitiba',
    'PR',
    '80010-000',
  ),
  legado: person(
    'Otávio Freitas Lima',
    '504.243.420-81',
    'otavio.lima@exemplo.com.br',
    '(51) 98222-5678',
    'Porto Alegre',
    'RS',
    '90010-150',
  ),
  renovacao: person(
    'Helena Duarte Vasconcelos',
    '412.775.306-45',
    'helena.vasconcelos@exemplo.com.br',
    '(31) 98333-6789',
    'Belo Horizonte',
    'MG',
    '30130-010',
  ),
  renovacaoLegado: person(
    'Rafael Moreira Antunes',
    '531.908.274-60',
    'rafael.antunes@exemplo.com.br',
    '(41) 98444-7890',
    'Curitiba',
    'PR',
    '80010-000',
  ),
} as const;

const HOUSE = { tipoImovel: 'casa', uso: 'habitual', construcao: 'alvenaria', valorImovel: 520_000_00, alarme: true };
/** Mixed construction is referred to the insurer's analysis (lib/acceptance.ts). */
const MIXED_HOUSE = { ...HOUSE, construcao: 'mista' };

interface Sale {
  seller: Seller;
  offer: OfferToQuote;
  segurado: object;
  respostas: object;
  selecao: object;
  contratacao: object;
  at: Date;
}

/** Cadastro to proposal at `at`, a few minutes apart, as a seller does it; the policy once accepted. */
async function sell(db: DB, sale: Sale): Promise<{ nrProposta: string; nrApolice?: string }> {
  const step = (minutes: number) => new Date(sale.at.getTime() + minutes * 60_000);
  const quote = await createQuote(db, sale.seller, sale.offer, { segurado: sale.segurado, respostas: sale.respostas }, sale.at);
  await saveStep(db, sale.seller, quote.nrCotacao, 'planos', { selecao: sale.selecao }, step(3));
  await saveStep(db, sale.seller, quote.nrCotacao, 'contratacao', { contratacao: sale.contratacao }, step(6));
  const { nrProposta, quote: sent } = await sendProposal(db, sale.seller, quote.nrCotacao, { aceiteTermo: true }, step(8));
  return { nrProposta, nrApolice: sent.proposta?.nrApolice ?? undefined };
}

/**
 * Pays installment `numero` of a policy by its boleto (or its Pix), as the bank would: at `at`, or at
 * 14h of its due day when that day has come before `now` (a future one stays open).
 */
async function pay(db: DB, now: Date, nrApolice: string, numero: number, by: 'boleto' | 'pix', at?: Date, generation: 'v1' | 'v2' = 'v2') {
  const charge = await currentCharge(db, { kind: 'all' }, generation, nrApolice, numero);
  const paidOn = at ?? new Date(`${charge.vencimento}T14:00:00-03:00`);
  if (paidOn > now) return;
  const code = by === 'boleto' ? charge.linhaDigitavel : charge.pixCopiaECola;
  await payCharge(db, { code, externalId: `demo-seed:${nrApolice}:${numero}`, origem: 'BANCO_DEMO' }, paidOn);
}

/**
 * The insured cancels a policy (whole, sold the insured good) at `at`, refunded to their CPF's Pix key,
 * as `userId` of `generation` records it: a refund owed in the insurer's queue (issue 31).
 */
async function cancelWhole(db: DB, generation: 'v1' | 'v2', userId: number, nrApolice: string, at: Date) {
  const policy = await db.selectFrom('policies').select('id_contratacao').where('nr_apolice', '=', nrApolice).executeTakeFirstOrThrow();
  const day = brasiliaDay(at);
  const actor = { userId, insurerStaff: false };
  const context = () => cancellationContext(db, { kind: 'all' }, generation, policy.id_contratacao, actor, day);
  await saveReason(db, await context(), { solicitante: 'SEGURADO', motivo: 'VENDA_DO_BEM', efetivaEm: day }, at);
  await saveCoverages(db, await context(), { escopo: 'TOTAL' }, at);
  const { draft, insuredDocument } = await context();
  if (!draft) return;
  await confirmCancellation(
    db,
    { kind: 'all' },
    generation,
    policy.id_contratacao,
    actor,
    { chave: draft.chave, conta: { tipo: 'PIX', chave: insuredDocument } },
    at,
  );
}

export async function seedDemoPolicies(db: DB, now: Date): Promise<void> {
  const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const [partnerRow, legacyRow, adminRow] = await Promise.all(
    ['parceiro@parceiro.demo', 'vendedor@legado.demo', 'admin@seguradora.demo'].map((email) => findUserByEmail(db, email)),
  );
  if (!partnerRow || !legacyRow || !adminRow) return;
  const partner = await loadV2User(db, partnerRow, { fullyAuthenticated: true });
  const legacy = await loadV1User(db, legacyRow);
  const seller = await sellerFromV2(db, partner);
  const legacySeller = await sellerFromV1(db, legacy);
  const offerOf = async (code: string, at: Date) => (await sellableOffers(db, partner, at)).find((o) => o.code === code);
  const residencial = (at: Date) => offerOf('RES', at);
  const vida = (at: Date) => offerOf('VEU', at);
  const conforto = { plan: 'conforto', capitals: {} };

  // Sold 50 days ago in 4 boletos: the 1st paid on its day, the 2nd overdue, the rest open — on the
  // first due day the rules allow, so the 1st falls 5 to 15 days after the sale, the 2nd a month later
  // (before today) and the 3rd after today, whatever today's day of the month.
  const overdueAt = daysAgo(50);
  const overdueDueDay = earliestDueDay(brasiliaDay(overdueAt));
  const overdueOffer = await residencial(overdueAt);
  if (overdueOffer) {
    const { nrApolice } = await sell(db, {
      seller,
      offer: overdueOffer,
      segurado: INSURED.atrasada,
      respostas: HOUSE,
      selecao: conforto,
      contratacao: { formaPagamento: 'boleto', parcelas: 4, diaVencimento: overdueDueDay },
      at: overdueAt,
    });
    if (nrApolice) await pay(db, now, nrApolice, 1, 'boleto');
  }

  // Sold 15 days ago, paid at once by Pix the next day: a policy paid up.
  const paidUpAt = daysAgo(15);
  const paidUpOffer = await residencial(paidUpAt);
  if (paidUpOffer) {
    const { nrApolice } = await sell(db, {
      seller,
      offer: paidUpOffer,
      segurado: INSURED.quitada,
      respostas: HOUSE,
      selecao: conforto,
      contratacao: { formaPagamento: 'pix', parcelas: 1 },
      at: paidUpAt,
    });
    if (nrApolice) await pay(db, now, nrApolice, 1, 'pix', daysAgo(14));
  }

  // Referred 3 days ago (mixed construction): in the ADMIN's queue, 22 days left on its clock.
  const analysisAt = daysAgo(3);
  const analysisOffer = await residencial(analysisAt);
  if (analysisOffer)
    await sell(db, {
      seller,
      offer: analysisOffer,
      segurado: INSURED.analise,
      respostas: MIXED_HOUSE,
      selecao: conforto,
      contratacao: { formaPagamento: 'boleto', parcelas: 2, diaVencimento: 15 },
      at: analysisAt,
    });

  // A life proposal of a risky profession, sent 8 days ago; the ADMIN asked for documents 6 days ago.
  const documentsAt = daysAgo(8);
  const lifeOffer = await vida(documentsAt);
  if (lifeOffer) {
    const { nrProposta } = await sell(db, {
      seller,
      offer: lifeOffer,
      segurado: INSURED.documentos,
      respostas: { profissao: 'risco', fumante: false },
      selecao: { plan: 'conforto', capitals: { morte: 200_000_00, morteAcidental: 200_000_00 } },
      contratacao: {
        formaPagamento: 'boleto',
        parcelas: 1,
        diaVencimento: 10,
        beneficiarios: [{ nome: 'Caio Campos Teixeira', parentesco: 'filho', percentual: 100 }],
      },
      at: documentsAt,
    });
    await decideProposal(
      db,
      adminRow.id,
      nrProposta,
      { decisao: 'SOLICITAR_DOCUMENTOS', motivo: 'Envie a declaração de atividade profissional e o último exame periódico.' },
      daysAgo(6),
    );
  }

  // The legacy seller's sale of 20 days ago, in 2 boletos still open.
  const legacyAt = daysAgo(20);
  const legacyOffer = (await sellableOffersV1(db, legacy, legacyAt)).find((o) => o.code === 'RES');
  if (legacyOffer)
    await sell(db, {
      seller: legacySeller,
      offer: legacyOffer,
      segurado: INSURED.legado,
      respostas: HOUSE,
      selecao: conforto,
      contratacao: { formaPagamento: 'boleto', parcelas: 2, diaVencimento: 5 },
      at: legacyAt,
    });

  // Sold 335 days ago, paid by Pix the next day: a policy ending in about 30 days, in each generation,
  // for the renewals list (issue 31).
  const renewalAt = daysAgo(335);
  const renewalOffer = await residencial(renewalAt);
  if (renewalOffer) {
    const { nrApolice } = await sell(db, {
      seller,
      offer: renewalOffer,
      segurado: INSURED.renovacao,
      respostas: HOUSE,
      selecao: conforto,
      contratacao: { formaPagamento: 'pix', parcelas: 1 },
      at: renewalAt,
    });
    if (nrApolice) await pay(db, now, nrApolice, 1, 'pix', daysAgo(334));
  }
  const legacyRenewalOffer = (await sellableOffersV1(db, legacy, renewalAt)).find((o) => o.code === 'RES');
  if (legacyRenewalOffer) {
    const { nrApolice } = await sell(db, {
      seller: legacySeller,
      offer: legacyRenewalOffer,
      segurado: INSURED.renovacaoLegado,
      respostas: HOUSE,
      selecao: conforto,
      contratacao: { formaPagamento: 'pix', parcelas: 1 },
      at: renewalAt,
    });
    if (nrApolice) await pay(db, now, nrApolice, 1, 'pix', daysAgo(334), 'v1');
  }

  // Issue 31: a policy of each generation sold 40 days ago, paid at once by Pix, cancelled by the
  // insured 5 days ago — a refund owed in the refunds queue (/v2/restituicoes, /restituicoes) and in
  // the policy's ledger.
  const cancelledAt = daysAgo(40);
  const cancelledOffer = await residencial(cancelledAt);
  if (cancelledOffer) {
    const { nrApolice } = await sell(db, {
      seller,
      offer: cancelledOffer,
      segurado: INSURED.cancelada,
      respostas: HOUSE,
      selecao: conforto,
      contratacao: { formaPagamento: 'pix', parcelas: 1 },
      at: cancelledAt,
    });
    if (nrApolice) {
      await pay(db, now, nrApolice, 1, 'pix', daysAgo(39));
      await cancelWhole(db, 'v2', partnerRow.id, nrApolice, daysAgo(5));
    }
  }
  const legacyCancelledOffer = (await sellableOffersV1(db, legacy, cancelledAt)).find((o) => o.code === 'RES');
  if (legacyCancelledOffer) {
    const { nrApolice } = await sell(db, {
      seller: legacySeller,
      offer: legacyCancelledOffer,
      segurado: INSURED.canceladaLegado,
      respostas: HOUSE,
      selecao: conforto,
      contratacao: { formaPagamento: 'pix', parcelas: 1 },
      at: cancelledAt,
    });
    if (nrApolice) {
      await pay(db, now, nrApolice, 1, 'pix', daysAgo(39), 'v1');
      await cancelWhole(db, 'v1', legacyRow.id, nrApolice, daysAgo(5));
    }
  }
}
