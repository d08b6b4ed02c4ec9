import type { ProductLine } from './simulators';

/*
 * The insurer behind the portal, as its documents name it (Circular SUSEP 642/2021 asks a policy to
 * say who insures, under which SUSEP registration, and how a consumer complains). ILLUSTRATIVE: a
 * sample company, registration, address and phone numbers (decision 034), like the receiving bank of
 * lib/charges.ts, whose Pix key is this CNPJ.
 */
export const INSURER = {
  name: 'Seguradora Demo S.A.',
  cnpj: '12.345.678/0001-95',
  /** The company's registration code at SUSEP. */
  susepCode: '09999',
  address: 'Avenida Paulista, 1000, Bela Vista, São Paulo - SP, 01310-100',
  sac: '0800 000 1234',
  sacHearingImpaired: '0800 000 1235',
  ouvidoria: '0800 000 4321',
  site: 'www.seguradorademo.com.br',
} as const;

/** The regulator's consumer service and the public complaint platform: real channels, the same for every insurer. */
export const PUBLIC_CHANNELS = {
  susepPhone: '0800 021 8484',
  susepSite: 'www.gov.br/susep',
  consumidor: 'www.consumidor.gov.br',
} as const;

/** SUSEP branch (ramo) of each line, the first digits of a policy number (services/after-sale/policies.ts). ILLUSTRATIVE. */
export const LINE_BRANCHES: Record<ProductLine, string> = {
  residencial: '0114',
  empresarial: '0118',
  'empresarial-individual': '0118',
  'itens-pessoais': '0171',
  maquinas: '0196',
  agricola: '1102',
  vida: '1391',
};

/** SUSEP branches (ramos) by the code that opens a policy number (services/after-sale/policies.ts). ILLUSTRATIVE names. */
export const BRANCH_NAMES: Record<string, string> = {
  '0114': 'Compreensivo residencial',
  '0118': 'Compreensivo empresarial',
  '0171': 'Riscos diversos',
  '0196': 'Riscos de engenharia — equipamentos',
  '1102': 'Agrícola',
  '1391': 'Vida individual',
};

/** 'Ramo 0114 — Compreensivo residencial' from a policy number. */
export function branchOf(nrApolice: string): string {
  const code = nrApolice.slice(0, 4);
  const name = BRANCH_NAMES[code];
  return name ? `${code} — ${name}` : code;
}

/** 'Ramo 0114 — Compreensivo residencial' of a line, before any policy number exists (the proposal's PDF). */
export const branchOfLine = (line: ProductLine): string => branchOf(LINE_BRANCHES[line]);

/**
 * Each product's registration at SUSEP (Circular SUSEP 642/2021 asks every policy to carry it): the
 * administrative process its Condições Gerais were filed under — where SUSEP's public consultation
 * finds them — and the page of the insurer's site where the insured reads and downloads them.
 * ILLUSTRATIVE numbers in SUSEP's format (15414.NNNNNN/AAAA-DD), like the insurer's own code: a real
 * insurer's come from its product registry. Keyed by simulator code (lib/products/catalog.ts); a
 * test keeps every product of the catalog here.
 */
const REGISTRATIONS: Record<string, { process: string; slug: string }> = {
  RES: { process: '15414.900101/2024-73', slug: 'residencial' },
  AFU: { process: '15414.900102/2024-18', slug: 'agricola' },
  PR: { process: '15414.900103/2024-62', slug: 'patrimonio-rural' },
  FL: { process: '15414.900104/2024-15', slug: 'floresta' },
  PRS: { process: '15414.900105/2024-51', slug: 'penhor-rural' },
  MU: { process: '15414.900106/2024-04', slug: 'maquinas-e-equipamentos' },
  EAU: { process: '15414.900107/2024-41', slug: 'empresarial' },
  EMP: { process: '15414.900108/2024-95', slug: 'empresarial-antigo' },
  EVI: { process: '15414.900109/2024-30', slug: 'empresarial-individual' },
  VEU: { process: '15414.900110/2024-64', slug: 'vida' },
  VG: { process: '15414.900111/2024-17', slug: 'vida-flex' },
  VE: { process: '15414.900112/2024-53', slug: 'vida-essencial' },
  IPU: { process: '15414.900113/2024-06', slug: 'itens-pessoais' },
  IP: { process: '15414.900114/2024-42', slug: 'itens-pessoais-antigo' },
};

export interface ProductRegistration {
  /** The SUSEP process number of the product's Condições Gerais. */
  process: string;
  /** Where the insured reads them: a page of the insurer's site. */
  conditionsUrl: string;
}

export const PRODUCT_REGISTRATIONS: Readonly<Record<string, ProductRegistration>> = Object.fromEntries(
  Object.entries(REGISTRATIONS).map(([code, { process, slug }]) => [
    code,
    { process, conditionsUrl: `${INSURER.site}/condicoes-gerais/${slug}` },
  ]),
);

/** The registration of a simulator code, in any case; undefined for one the catalog does not price (AFS). */
export const productRegistration = (code: string): ProductRegistration | undefined =>
  Object.hasOwn(PRODUCT_REGISTRATIONS, code.toUpperCase()) ? PRODUCT_REGISTRATIONS[code.toUpperCase()] : undefined;
