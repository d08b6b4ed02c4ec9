import type { DB } from '../db/index';
import { sellableOffers } from '../services/network/offers';
import { findUserByEmail, loadV2User } from '../services/identity/principals';
import { createQuote, saveStep, sendProposal, type Seller } from '../services/selling/quotes';
import { sellerFromV2 } from '../services/selling/sellers';
import type { V2SessionUser } from '../../lib/session';
import { seedDemoPolicies } from './seed-policies';
import { now as clockNow } from '../clock';

/**
 * Demo quotes, so /v2/historico shows every status on a fresh portal: made through the real quote
 * services (validation and pricing included), never inserted by hand. parceiro@parceiro.demo gets a
 * residential quote at planos, a life quote sent as a proposal and a residential quote made 60 days
 * ago, filled up to the resumo, that has expired ('Vencida'); substabelecido@parceiro.demo one residential quote of its own.
 */
const DAY_MS = 86_400_000;

const address = (cep: string, logradouro: string, bairro: string, cidade: string, uf: string) => ({
  cep,
  logradouro,
  numero: '120',
  bairro,
  cidade,
  uf,
});

export const DEMO_INSURED = {
  residencial: {
    tipoPessoa: 'PF',
    nome: 'Marina Costa Alves',
    cpf: '274.185.963-91',
    dataNascimento: '1985-04-12',
    email: 'marina.alves@exemplo.com.br',
    telefone: '(11) 98765-4321',
    endereco: address('01310-100', 'Avenida Paulista', 'Bela Vista', 'São Paulo', 'SP'),
  },
  vida: {
    tipoPessoa: 'PF',
    nome: 'Rafael Nogueira Pinto',
    cpf: '381.926.457-46',
    dataNascimento: '1979-09-30',
    email: 'rafael.pinto@exemplo.com.br',
    telefone: '(31) 99876-5432',
    endereco: address('30140-071', 'Rua da Bahia', 'Centro', 'Belo Horizonte', 'MG'),
  },
  vencida: {
    tipoPessoa: 'PF',
    nome: 'Juliana Ferreira Rocha',
    cpf: '462.819.375-46',
    dataNascimento: '1990-01-25',
    email: 'juliana.rocha@exemplo.com.br',
    telefone: '(21) 97654-3210',
    endereco: address('22071-000', 'Avenida Atlântica', 'Copacabana', 'Rio de Janeiro', 'RJ'),
  },
  substabelecido: {
    tipoPessoa: 'PF',
    nome: 'Paulo Henrique Dias',
    cpf: '593.817.264-00',
    dataNascimento: '1972-06-08',
    email: 'paulo.dias@exemplo.com.br',
    telefone: '(41) 3333-4444',
    endereco: address('80020-310', 'Rua XV de Novembro', 'Centro', 'Curitiba', 'PR'),
  },
} as const;

const HOUSE = { tipoImovel: 'casa', uso: 'habitual', construcao: 'alvenaria', valorImovel: 450_000_00, alarme: true };
const APARTMENT = { tipoImovel: 'apartamento', uso: 'habitual', construcao: 'alvenaria', valorImovel: 320_000_00, alarme: false };

async function demoSeller(db: DB, email: string): Promise<{ user: V2SessionUser; seller: Seller } | undefined> {
  const row = await findUserByEmail(db, email);
  if (!row) return undefined;
  const user = await loadV2User(db, row, { fullyAuthenticated: true });
  return { user, seller: await sellerFromV2(db, user) };
}

/** Runs once, on the fresh database seedDemoData has just filled. */
export async function seedDemoQuotes(db: DB, { now = clockNow(), afterSale = true } = {}): Promise<void> {
  const partner = await demoSeller(db, 'parceiro@parceiro.demo');
  const subagent = await demoSeller(db, 'substabelecido@parceiro.demo');
  if (!partner || !subagent) return;
  const offerOf = async (user: V2SessionUser, code: string) => (await sellableOffers(db, user, now)).find((o) => o.code === code);
  const [residencial, vida, subagentResidencial] = await Promise.all([
    offerOf(partner.user, 'RES'),
    offerOf(partner.user, 'VEU'),
    offerOf(subagent.user, 'RES'),
  ]);
  // The seed's offers run from 2026 to 2027: a clock outside them seeds no quotes rather than failing the start.
  if (!residencial || !vida || !subagentResidencial) return;

  const sixtyDaysAgo = new Date(now.getTime() - 60 * DAY_MS);
  const expired = await createQuote(
    db,
    partner.seller,
    residencial,
    { segurado: DEMO_INSURED.vencida, respostas: APARTMENT },
    sixtyDaysAgo,
  );
  await saveStep(
    db,
    partner.seller,
    expired.nrCotacao,
    'planos',
    { selecao: { plan: 'essencial', capitals: { danosEletricos: 10_000_00 } } },
    new Date(sixtyDaysAgo.getTime() + 10 * 60_000),
  );
  // Filled up to the resumo and never sent: it shows what an expired quote still lets a partner see.
  await saveStep(
    db,
    partner.seller,
    expired.nrCotacao,
    'contratacao',
    { contratacao: { formaPagamento: 'boleto', parcelas: 1, diaVencimento: 10 } },
    new Date(sixtyDaysAgo.getTime() + 15 * 60_000),
  );

  const life = await createQuote(
    db,
    partner.seller,
    vida,
    { segurado: DEMO_INSURED.vida, respostas: { profissao: 'administrativa', fumante: false } },
    new Date(now.getTime() - 2 * DAY_MS),
  );
  await saveStep(
    db,
    partner.seller,
    life.nrCotacao,
    'planos',
    { selecao: { plan: 'conforto', capitals: { morte: 150_000_00, morteAcidental: 150_000_00 } } },
    now,
  );
  await saveStep(
    db,
    partner.seller,
    life.nrCotacao,
    'contratacao',
    {
      contratacao: {
        formaPagamento: 'boleto',
        parcelas: 1,
        diaVencimento: 10,
        beneficiarios: [{ nome: 'Beatriz Nogueira Pinto', parentesco: 'conjuge', percentual: 100 }],
      },
    },
    now,
  );
  await sendProposal(db, partner.seller, life.nrCotacao, { aceiteTermo: true }, now);

  await createQuote(
    db,
    partner.seller,
    residencial,
    { segurado: DEMO_INSURED.residencial, respostas: HOUSE },
    new Date(now.getTime() - DAY_MS),
  );
  await createQuote(db, subagent.seller, subagentResidencial, { segurado: DEMO_INSURED.substabelecido, respostas: APARTMENT }, now);
  if (afterSale) await seedDemoPolicies(db, now);
}
