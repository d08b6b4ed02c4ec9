import type { DB } from '../db/index';
import type { V2ProfileCode } from '../db/schema';
import type { PointOfSaleAddress } from '../../lib/points-of-sale';
import { hashPassword } from '../auth/passwords';
import { SIMULATOR_CODES } from '../../lib/simulators';
import { offerOperation, SIMULATOR_OFFER_SUFFIXES, v1OfferPermission, V1_ADMIN_GROUP } from '../../lib/permissions';
import { startFirstAccess } from '../services/identity/account';
import { seedDemoQuotes } from './seed-quotes';
import { seedDemoHistory } from './seed-history';
import { now as clockNow } from '../clock';
import { brasiliaDay } from '../../lib/format';
import { demoOfferTerm } from '../../lib/offer-validity';
import { seal } from '../auth/secret-box';
// The demo's administrators come with an authenticator app already set up, its secret published in the
// README like the demo password (decision 068): `npm run totp -- <e-mail>` prints the current code.
import DEMO_TOTP_SECRETS_JSON from './second-factor-secrets.json' with { type: 'json' };

const DEMO_TOTP_SECRETS: Record<string, string | undefined> = DEMO_TOTP_SECRETS_JSON;

/**
 * Demo data for an empty database (README lists the accounts). Runs once: a database that has users
 * is never touched, so a restart keeps everything, changed passwords included.
 */
export const DEMO_PASSWORD = 'Portal@2026';

export const DEMO_COMPANIES = {
  parceiro: {
    cnpj: '11222333000181',
    razao_social: 'Corretora Horizonte Seguros Ltda.',
    nome_fantasia: 'Horizonte Seguros',
    tipo: 'PARCEIRO',
  },
  substabelecido: {
    cnpj: '33444555000181',
    razao_social: 'Agência Vale Verde Corretagem Ltda.',
    nome_fantasia: 'Vale Verde',
    tipo: 'SUBSTABELECIDO',
  },
} as const;

/** Where the demo companies sell (decision 051): Horizonte's two shops and Vale Verde's agency. */
const DEMO_POINTS_OF_SALE: ({ company: keyof typeof DEMO_COMPANIES; nome: string; codigo: string } & PointOfSaleAddress)[] = [
  {
    company: 'parceiro',
    nome: 'Loja Centro — São Paulo',
    codigo: 'PV-0001',
    cep: '01002000',
    logradouro: 'Rua Direita',
    numero: '250',
    complemento: 'Loja 3',
    bairro: 'Sé',
    cidade: 'São Paulo',
    uf: 'SP',
  },
  {
    company: 'parceiro',
    nome: 'Loja Savassi — Belo Horizonte',
    codigo: 'PV-0002',
    cep: '30130151',
    logradouro: 'Rua Pernambuco',
    numero: '1000',
    complemento: '',
    bairro: 'Savassi',
    cidade: 'Belo Horizonte',
    uf: 'MG',
  },
  {
    company: 'substabelecido',
    nome: 'Agência Vale Verde — Campinas',
    codigo: 'VV-0001',
    cep: '13012100',
    logradouro: 'Avenida Francisco Glicério',
    numero: '1000',
    complemento: 'Sala 12',
    bairro: 'Centro',
    cidade: 'Campinas',
    uf: 'SP',
  },
];
/**
 * What the onboarding asks of a company (decision 052), as its steps store it: both demo companies
 * are brokers, so their review pages show every section with real shapes.
 */
const DEMO_COMPANY_DATA = {
  parceiro: {
    corretora: true,
    susep: '202031234',
    endereco: {
      cep: '01310100',
      logradouro: 'Avenida Paulista',
      numero: '1000',
      complemento: '12º andar',
      bairro: 'Bela Vista',
      cidade: 'São Paulo',
      uf: 'SP',
    },
    contatos: {
      responsavel: {
        nome: 'Roberto Alves Horizonte',
        cpf: '15350946056',
        email: 'roberto.alves@horizonteseguros.com.br',
        celular: '11987654321',
        cargo: 'Sócio-administrador',
      },
      comercial: {
        email: 'comercial@horizonteseguros.com.br',
        telefone: '1133334444',
        emailFinanceiro: 'financeiro@horizonteseguros.com.br',
      },
    },
    conta_comissao: { tipo: 'CONTA', banco: '341', agencia: '1234', conta: '1234567', tipoConta: 'corrente', titular: '11222333000181' },
  },
  substabelecido: {
    corretora: true,
    susep: '202045678',
    endereco: {
      cep: '38400100',
      logradouro: 'Avenida Afonso Pena',
      numero: '250',
      complemento: '',
      bairro: 'Centro',
      cidade: 'Uberlândia',
      uf: 'MG',
    },
    contatos: {
      responsavel: {
        nome: 'Lúcia Verde Campos',
        cpf: '28471936003',
        email: 'lucia.campos@valeverde.com.br',
        celular: '34991234567',
        cargo: 'Diretora',
      },
      comercial: { email: 'atendimento@valeverde.com.br', telefone: '3432105000', emailFinanceiro: 'financeiro@valeverde.com.br' },
    },
    conta_comissao: { tipo: 'PIX', chave: { type: 'CNPJ', key: '33444555000181' } },
  },
} as const;

const companyValues = (key: keyof typeof DEMO_COMPANIES) => {
  const data = DEMO_COMPANY_DATA[key];
  return {
    ...DEMO_COMPANIES[key],
    corretora: data.corretora,
    susep: data.susep,
    endereco: JSON.stringify(data.endereco),
    contatos: JSON.stringify(data.contatos),
    conta_comissao: JSON.stringify(data.conta_comissao),
    activated_at: '2025-01-01T12:00:00Z',
  };
};

const V1_GROUPS: {
  nome: string;
  canal?: 'portal' | 'varejo';
  descricao: string;
  is_admin: boolean;
  permissions: { nome: string; view: boolean; edit: boolean }[];
}[] = [
  { nome: V1_ADMIN_GROUP, descricao: 'Administração do portal legado: todas as permissões', is_admin: true, permissions: [] },
  {
    nome: 'VENDEDOR',
    descricao: 'Vendedor: ofertas, histórico de vendas e relatórios',
    is_admin: false,
    permissions: [
      ...SIMULATOR_CODES.map((s) => v1OfferPermission(s.code)),
      'HISTORICO_VENDAS',
      'HISTORICO_VENDAS_PROPOSTAS',
      'HISTORICO_VENDAS_SIMULACAO',
      'RELATORIO_GESTAO',
    ].map((nome) => ({ nome, view: true, edit: false })),
  },
  {
    nome: 'GESTOR',
    descricao: 'Gestor: vendas, documentos, financeiro, hierarquia e usuários',
    is_admin: false,
    permissions: [
      ...SIMULATOR_CODES.map((s) => v1OfferPermission(s.code)),
      'HISTORICO_VENDAS',
      'HISTORICO_VENDAS_PROPOSTAS',
      'HISTORICO_VENDAS_SIMULACAO',
      'RELATORIO_GESTAO',
      'DOCUMENTO_CONSULTA_E_DOWNLOAD',
      'CLIENTES_CONSULTA_PAGAMENTO',
      'FINANCEIRO_INFORME_RENDIMENTO',
      'HIERARQUIA',
      'USUARIOS',
    ].map((nome) => ({ nome, view: true, edit: true })),
  },
  // Sells only residential and life (Vida): the legacy routes of the other lines answer 403 to it.
  {
    nome: 'CONSULTOR',
    descricao: 'Consultor: ofertas Residencial e Vida, histórico de vendas',
    is_admin: false,
    permissions: [
      v1OfferPermission('RES'),
      v1OfferPermission('VEU'),
      'HISTORICO_VENDAS',
      'HISTORICO_VENDAS_PROPOSTAS',
      'HISTORICO_VENDAS_SIMULACAO',
    ].map((nome) => ({ nome, view: true, edit: false })),
  },
  // The retail network's store clerk: sells Residencial and Itens Pessoais, sees its own history.
  {
    nome: 'LOJISTA',
    canal: 'varejo',
    descricao: 'Lojista da rede de varejo: Residencial e Itens Pessoais',
    is_admin: false,
    permissions: [v1OfferPermission('RES'), v1OfferPermission('IP'), 'HISTORICO_VENDAS', 'HISTORICO_VENDAS_SIMULACAO'].map((nome) => ({
      nome,
      view: true,
      edit: false,
    })),
  },
  {
    nome: 'OPERACAO_RESTRITA',
    descricao: 'Operação restrita: apenas consulta de documentos',
    is_admin: false,
    permissions: [{ nome: 'DOCUMENTO_CONSULTA_E_DOWNLOAD', view: true, edit: false }],
  },
];

interface DemoUser {
  email: string;
  nome: string;
  cpf: string;
  generation: 'v1' | 'v2';
  profile?: V2ProfileCode;
  groups?: string[];
  operations?: string[];
  companies: (keyof typeof DEMO_COMPANIES)[];
  /** The code of the point of sale the user sells at (migration 013). */
  pointOfSale?: string;
  /** A v2 permission group of the user's first company (V2_PERMISSION_GROUPS). */
  permissionGroup?: string;
  pending?: boolean;
  /** Last signed in this many days before the seed's clock (and created long before): the access review's (issue 42). */
  idleDays?: number;
}

const DAY_MS = 86_400_000;

const ALL_OFFER_OPERATIONS = SIMULATOR_OFFER_SUFFIXES.map(offerOperation);

/** The v2 permission groups a company starts with (migration 017): Horizonte's store sellers hold theirs. */
const V2_PERMISSION_GROUPS = [
  {
    company: 'parceiro' as const,
    nome: 'Vendedor de loja',
    descricao: 'Vende nas lojas e acompanha as próprias apólices e boletos',
    operations: ['COTAR_VENDER', 'HISTORICO_COTACAO_PROPOSTA', 'APOLICE_VENDEDOR', 'BOLETOS_VENDEDOR', ...ALL_OFFER_OPERATIONS],
  },
];

export const DEMO_USERS: DemoUser[] = [
  {
    email: 'admin@legado.demo',
    nome: 'Ana Ribeiro',
    cpf: '52998224725',
    generation: 'v1',
    groups: [V1_ADMIN_GROUP],
    companies: ['parceiro'],
  },
  {
    email: 'vendedor@legado.demo',
    nome: 'Bruno Carvalho',
    cpf: '11144477735',
    generation: 'v1',
    groups: ['VENDEDOR'],
    companies: ['parceiro'],
    pointOfSale: 'PV-0002',
  },
  {
    email: 'consultor@legado.demo',
    nome: 'Helena Martins',
    cpf: '98765432100',
    generation: 'v1',
    groups: ['CONSULTOR'],
    companies: ['parceiro'],
  },
  // A second member of the admin group (support): user administration is tried without touching
  // admin@legado.demo, whose password the account-recovery journey resets.
  {
    email: 'suporte@legado.demo',
    nome: 'Rafael Monteiro',
    cpf: '27100000084',
    generation: 'v1',
    groups: [V1_ADMIN_GROUP],
    companies: ['parceiro'],
  },
  // A partner's manager in the legacy portal: manages the users of Horizonte only (USUARIOS) and
  // gives only the groups whose every permission it holds.
  {
    email: 'gestor@legado.demo',
    nome: 'Marcos Teixeira',
    cpf: '31600000010',
    generation: 'v1',
    groups: ['GESTOR'],
    companies: ['parceiro'],
  },
  { email: 'admin@seguradora.demo', nome: 'Carla Mendes', cpf: '39053344705', generation: 'v2', profile: 'admin', companies: [] },
  {
    email: 'parceiro.admin@parceiro.demo',
    nome: 'Daniel Souza',
    cpf: '45317828791',
    generation: 'v2',
    profile: 'parceiro_admin',
    companies: ['parceiro', 'substabelecido'],
  },
  {
    email: 'parceiro@parceiro.demo',
    nome: 'Eduarda Lima',
    cpf: '71428793860',
    generation: 'v2',
    profile: 'parceiro',
    companies: ['parceiro'],
    pointOfSale: 'PV-0001',
    operations: ['COTAR_VENDER', 'HISTORICO_COTACAO_PROPOSTA', 'METRICAS', 'APOLICE_VENDEDOR', 'BOLETOS_VENDEDOR', ...ALL_OFFER_OPERATIONS],
  },
  // Two more sellers of Horizonte, one per point of sale: the rankings of the metrics have a field.
  ...(
    [
      ['igor.pereira@parceiro.demo', 'Igor Pereira', '34936765309', 'PV-0001'],
      ['juliana.costa@parceiro.demo', 'Juliana Costa', '74564756443', 'PV-0002'],
    ] as const
  ).map(([email, nome, cpf, pointOfSale]) => ({
    email,
    nome,
    cpf,
    generation: 'v2' as const,
    profile: 'parceiro' as const,
    companies: ['parceiro' as const],
    pointOfSale,
    permissionGroup: 'Vendedor de loja',
  })),
  {
    email: 'substabelecido@parceiro.demo',
    nome: 'Felipe Araújo',
    cpf: '86288366757',
    generation: 'v2',
    profile: 'substabelecido',
    companies: ['substabelecido'],
    operations: [
      'COTAR_VENDER',
      'HISTORICO_COTACAO_PROPOSTA',
      'RELATORIO_VENDAS',
      'GERENCIAR_USUARIOS',
      ...(['RESIDENCIAL', 'ITENS_PESSOAIS', 'VIDAESSENCIALULTRON'] as const).map(offerOperation),
    ],
  },
  // Users who stopped signing in, in both generations: the access review (/revisao-acessos,
  // /v2/usuario/revisao-acessos) has someone to show on a fresh demo (issue 42). No point of sale:
  // the shops' lists, metrics and hierarchy stay as they were.
  {
    email: 'otavio.nunes@legado.demo',
    nome: 'Otávio Nunes',
    cpf: '58392017404',
    generation: 'v1',
    groups: ['VENDEDOR'],
    companies: ['parceiro'],
    idleDays: 120,
  },
  {
    email: 'silvia.prado@legado.demo',
    nome: 'Sílvia Prado',
    cpf: '69140238598',
    generation: 'v1',
    groups: ['CONSULTOR'],
    companies: ['parceiro'],
    idleDays: 210,
  },
  {
    email: 'lucas.moreira@parceiro.demo',
    nome: 'Lucas Moreira',
    cpf: '80513729640',
    generation: 'v2',
    profile: 'parceiro',
    companies: ['parceiro'],
    permissionGroup: 'Vendedor de loja',
    idleDays: 150,
  },
  {
    email: 'renata.dias@parceiro.demo',
    nome: 'Renata Dias',
    cpf: '91326470850',
    generation: 'v2',
    profile: 'parceiro',
    companies: ['parceiro'],
    operations: ['COTAR_VENDER', 'HISTORICO_COTACAO_PROPOSTA', offerOperation('RESIDENCIAL')],
    idleDays: 95,
  },
  // A user created by the partner admin who has not validated the e-mailed code yet (first access).
  {
    email: 'novo.parceiro@parceiro.demo',
    nome: 'Gabriela Rocha',
    cpf: '12345678909',
    generation: 'v2',
    profile: 'parceiro',
    companies: ['parceiro'],
    operations: ['COTAR_VENDER', 'HISTORICO_COTACAO_PROPOSTA', offerOperation('RESIDENCIAL')],
    pending: true,
  },
];

/** An idle user's dates, by the seed's clock (CLOCK_OFFSET_DAYS included): signed in `days` ago, created a year before that. */
function idleDates(days: number) {
  const lastAccess = clockNow().getTime() - days * DAY_MS;
  return {
    last_access_at: new Date(lastAccess),
    previous_access_at: new Date(lastAccess - 7 * DAY_MS),
    created_at: new Date(lastAccess - 365 * DAY_MS),
  };
}

/**
 * `afterSale: false` leaves out the demo policies and payments (tests that count a period's payments);
 * `history: true` adds a year of sales (seed-history.ts) — the portal's own start, not the tests.
 */
export async function seedDemoData(db: DB, { afterSale = true, history = false } = {}): Promise<boolean> {
  const existing = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (existing) return false;
  // The demo accounts share one published password, so they share its hash: one slow scrypt, not seven.
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  await db.transaction().execute(async (trx) => {
    const parceiro = await trx.insertInto('companies').values(companyValues('parceiro')).returning('id').executeTakeFirstOrThrow();
    const sub = await trx
      .insertInto('companies')
      .values({ ...companyValues('substabelecido'), parent_id: parceiro.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const companyIds = { parceiro: parceiro.id, substabelecido: sub.id };

    const pointsOfSale = await trx
      .insertInto('points_of_sale')
      .values(DEMO_POINTS_OF_SALE.map(({ company, ...point }) => ({ ...point, company_id: companyIds[company] })))
      .returning(['id', 'codigo'])
      .execute();
    const pointOfSaleIds = new Map(pointsOfSale.map((p) => [p.codigo, p.id]));

    const term = demoOfferTerm(brasiliaDay(clockNow()));
    for (const simulator of SIMULATOR_CODES) {
      const { id } = await trx
        .insertInto('simulators')
        .values({
          code: simulator.code,
          nome: simulator.name,
          linha: simulator.line,
          url_inicio: simulator.startUrl,
          grupo_produto: simulator.productGroup ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('offers')
        .values({
          simulator_id: id,
          company_id: parceiro.id,
          nome: `${simulator.name} — Horizonte`,
          vigencia_inicio: term.inicio,
          vigencia_fim: term.fim,
          comissao_centesimos: 2000,
        })
        .execute();
    }

    // The portal's own channel comes with migration 017; a retail network is the second one.
    const channelIds = new Map<string, number>(
      (await trx.selectFrom('channels').select(['id', 'codigo']).execute()).map((c) => [c.codigo, c.id]),
    );
    const varejo = await trx
      .insertInto('channels')
      .values({ codigo: 'varejo', nome: 'Rede de varejo', tipo: 'VAREJO', parent_id: channelIds.get('portal')! })
      .returning('id')
      .executeTakeFirstOrThrow();
    channelIds.set('varejo', varejo.id);

    const groupIds = new Map<string, number>();
    for (const group of V1_GROUPS) {
      const { id } = await trx
        .insertInto('permission_groups')
        .values({
          nome: group.nome,
          descricao: group.descricao,
          is_admin: group.is_admin,
          channel_id: channelIds.get(group.canal ?? 'portal')!,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      groupIds.set(group.nome, id);
      if (group.permissions.length > 0) {
        await trx
          .insertInto('group_permissions')
          .values(
            group.permissions.map((p) => ({
              group_id: id,
              nome: p.nome,
              permite_visualizacao: p.view,
              permite_alteracao: p.edit,
            })),
          )
          .execute();
      }
    }

    const permissionGroupIds = new Map<string, number>();
    for (const group of V2_PERMISSION_GROUPS) {
      const { id } = await trx
        .insertInto('v2_permission_groups')
        .values({ company_id: companyIds[group.company], nome: group.nome, descricao: group.descricao })
        .returning('id')
        .executeTakeFirstOrThrow();
      permissionGroupIds.set(group.nome, id);
      await trx
        .insertInto('v2_permission_group_operations')
        .values(group.operations.map((operation) => ({ group_id: id, operation })))
        .execute();
    }

    for (const demo of DEMO_USERS) {
      const { id } = await trx
        .insertInto('users')
        .values({
          email: demo.email,
          nome: demo.nome,
          cpf: demo.cpf,
          generation: demo.generation,
          profile: demo.profile ?? null,
          status: demo.pending ? 'PENDENTE' : 'ATIVO',
          password_hash: demo.pending ? null : passwordHash,
          company_id: demo.companies[0] ? companyIds[demo.companies[0]] : null,
          point_of_sale_id: demo.pointOfSale ? pointOfSaleIds.get(demo.pointOfSale) : null,
          permission_group_id: demo.permissionGroup ? permissionGroupIds.get(demo.permissionGroup) : null,
          ...(demo.idleDays ? idleDates(demo.idleDays) : {}),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const totpSecret = DEMO_TOTP_SECRETS[demo.email];
      if (totpSecret) {
        await trx
          .insertInto('user_factors')
          .values({ user_id: id, kind: 'totp', label: 'Aplicativo autenticador (demonstração)', totp_secret: seal(totpSecret) })
          .execute();
      }
      for (const company of demo.companies) {
        await trx.insertInto('user_companies').values({ user_id: id, company_id: companyIds[company] }).execute();
      }
      for (const group of demo.groups ?? []) {
        await trx
          .insertInto('user_groups')
          .values({ user_id: id, group_id: groupIds.get(group)! })
          .execute();
      }
      if (demo.operations?.length) {
        await trx
          .insertInto('user_operations')
          .values(demo.operations.map((operation) => ({ user_id: id, operation })))
          .execute();
      }
    }
  });

  for (const demo of DEMO_USERS.filter((u) => u.pending)) {
    const user = await db.selectFrom('users').selectAll().where('email', '=', demo.email).executeTakeFirstOrThrow();
    await startFirstAccess(db, user);
  }
  if (history && afterSale) {
    console.log('Demonstração: gerando um ano de vendas (só na primeira vez)…');
    await seedDemoHistory(db, clockNow(), (months, of) => console.log(`Demonstração: ${months} de ${of} meses de vendas`));
  }
  await seedDemoQuotes(db, { afterSale });
  return true;
}
