import type { SIMULATOR_OFFER_SUFFIXES } from './permissions';

/**
 * The simulator codes of SPEC §1 as one table (DESIGN §7). Codes are upper case in data and history
 * state and lower case in paths (SPEC §3). Later issues add each line's routes and catalog here.
 */
export type ProductLine = 'residencial' | 'agricola' | 'maquinas' | 'empresarial' | 'empresarial-individual' | 'vida' | 'itens-pessoais';

export interface SimulatorCode {
  code: string;
  /** Product name as a partner reads it. */
  name: string;
  line: ProductLine;
  /** Suffix of the v2 per-simulator offer operation OFERTAS_DISPONIVEIS_SIMULADORES_*. */
  offerSuffix: (typeof SIMULATOR_OFFER_SUFFIXES)[number];
  /** Product group (SPEC §9) where the SPEC gives one. */
  productGroup?: string;
  /** Where a partner starts this simulator (SPEC §1: each code maps to a start URL). */
  startUrl: string;
  /** True for the old agricultural simulator, which redirects to an external application. */
  external?: boolean;
  /** Sold in the v2 generation, at /v2/simulador-{line} (SPEC §2). */
  v2?: boolean;
  /**
   * Sold by the legacy simulators at /simulador-{line} (SPEC §2; docs/decisions/019-legacy-sell.md).
   * EMP, IP and VE are embedded applications and AFS redirects externally: none is sold there.
   */
  legacy?: boolean;
  /**
   * Sold by an embedded issuance application under the legacy session (/emissao/…, SPEC §2;
   * lib/embedded-apps.ts, docs/decisions/054-embedded-issuance-apps.md): EMP, IP and VE.
   */
  embedded?: boolean;
}

export const SIMULATOR_CODES: readonly SimulatorCode[] = [
  {
    code: 'RES',
    name: 'Residencial',
    line: 'residencial',
    startUrl: '/simulador-residencial/cadastro',
    offerSuffix: 'RESIDENCIAL',
    v2: true,
    legacy: true,
  },
  {
    code: 'AFU',
    name: 'Agrícola',
    line: 'agricola',
    startUrl: '/simulador-agricola/cadastro',
    offerSuffix: 'AGRICOLAFLEXULTRON',
    v2: true,
    legacy: true,
  },
  {
    code: 'AFS',
    name: 'Agrícola (antigo)',
    line: 'agricola',
    startUrl: '/simulador-agricola-antigo',
    offerSuffix: 'AGRICOLAFLEX',
    external: true,
  },
  {
    code: 'MU',
    name: 'Máquinas e Equipamentos',
    line: 'maquinas',
    startUrl: '/simulador-maquinas/cadastro',
    offerSuffix: 'MAQUINAULTRON',
    v2: true,
    legacy: true,
  },
  {
    code: 'EAU',
    name: 'Empresarial',
    line: 'empresarial',
    startUrl: '/simulador-empresarial/cadastro',
    offerSuffix: 'EMPRESARIAL',
    v2: true,
    legacy: true,
  },
  {
    code: 'EVI',
    name: 'Empresarial Individual',
    line: 'empresarial-individual',
    startUrl: '/v2/simulador-empresarial-individual/cadastro/iniciar',
    offerSuffix: 'EMPRESARIAL_ALELO',
    v2: true,
  },
  {
    code: 'VEU',
    name: 'Vida',
    line: 'vida',
    startUrl: '/simulador-vida/cadastro',
    offerSuffix: 'VIDAESSENCIALULTRON',
    v2: true,
    legacy: true,
  },
  {
    code: 'IPU',
    name: 'Itens Pessoais',
    line: 'itens-pessoais',
    startUrl: '/v2/simulador-itens-pessoais/cadastro/iniciar',
    offerSuffix: 'ITENS_PESSOAIS',
    v2: true,
  },
  {
    code: 'EMP',
    name: 'Empresarial (antigo)',
    line: 'empresarial',
    startUrl: '/emissao/consulta-cotacao/iniciar/empresarial',
    offerSuffix: 'EMPRESARIAL',
    productGroup: '0118',
    embedded: true,
  },
  {
    code: 'IP',
    name: 'Itens Pessoais (antigo)',
    line: 'itens-pessoais',
    startUrl: '/emissao/itens-pessoais/iniciar/itens-pessoais',
    offerSuffix: 'ITENS_PESSOAIS',
    productGroup: '0171',
    embedded: true,
  },
  {
    code: 'VE',
    name: 'Vida Essencial',
    line: 'vida',
    startUrl: '/emissao/cotacao/vida/nova-cotacao',
    offerSuffix: 'VIDAESSENCIAL',
    productGroup: '1391',
    embedded: true,
  },
  {
    code: 'PR',
    name: 'Patrimônio Rural',
    line: 'agricola',
    startUrl: '/simulador-agricola/cadastro',
    offerSuffix: 'PATRIMONIO_RURAL',
    v2: true,
    legacy: true,
  },
  {
    code: 'FL',
    name: 'Floresta',
    line: 'agricola',
    startUrl: '/simulador-agricola/cadastro',
    offerSuffix: 'FLORESTA',
    v2: true,
    legacy: true,
  },
  {
    code: 'PRS',
    name: 'Penhor Rural',
    line: 'agricola',
    startUrl: '/simulador-agricola/cadastro',
    offerSuffix: 'PENHOR_RURAL',
    v2: true,
    legacy: true,
  },
  { code: 'VG', name: 'Vida Flex', line: 'vida', startUrl: '/simulador-vida/cadastro', offerSuffix: 'VIDAFLEX', v2: true, legacy: true },
];

export const findSimulatorCode = (code: string): SimulatorCode | undefined => SIMULATOR_CODES.find((s) => s.code === code.toUpperCase());

/** v2 simulators live at /v2/simulador-{line}: the line names are the route segments (SPEC §2). */
export const v2SimulatorBase = (line: ProductLine) => `/v2/simulador-${line}`;

/** SPEC §2: individual business and personal items start with cadastro/iniciar/{nrOferta} only. */
const STARTS_WITHOUT_SIMULATOR_ID: readonly ProductLine[] = ['empresarial-individual', 'itens-pessoais'];

/** The v2 start route of an offer: cadastro/iniciar/{idSimulador}/{nrOferta}. */
export function v2StartPath(line: ProductLine, idSimulador: number, nrOferta: number): string {
  const ids = STARTS_WITHOUT_SIMULATOR_ID.includes(line) ? [nrOferta] : [idSimulador, nrOferta];
  return `${v2SimulatorBase(line)}/cadastro/iniciar/${ids.join('/')}`;
}

export const V2_SIMULATOR_CODES = SIMULATOR_CODES.filter((s) => s.v2);
export const LEGACY_SIMULATOR_CODES = SIMULATOR_CODES.filter((s) => s.legacy);

/** The five legacy simulators (SPEC §2): /simulador-{residencial|agricola|vida|maquinas|empresarial}. */
export const LEGACY_LINES: readonly ProductLine[] = [...new Set(LEGACY_SIMULATOR_CODES.map((s) => s.line))];

/**
 * Where a legacy offer starts: its line's plain cadastro with the offer chosen (the plain cadastro
 * starts a new simulation, docs/decisions/019-legacy-sell.md); AFS at its external start.
 */
export const legacyStartPath = (simulator: SimulatorCode, nrOferta: number): string =>
  simulator.legacy ? `/simulador-${simulator.line}/cadastro?oferta=${nrOferta}` : simulator.startUrl;

/** Codes whose simulator is another application reached by the key redirect (SPEC §7: only AFS). */
export const EXTERNAL_SIMULATOR_CODES: readonly string[] = SIMULATOR_CODES.filter((s) => s.external).map((s) => s.code);
