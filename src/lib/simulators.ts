import type { SIMULATOR_OFFER_SUFFIXES } from './permissions';

/**
 * The simulator codes of SPEC §1 as one table (DESIGN §7). Codes are upper case in data and history
 * state and lower case in paths (SPEC §3). Later issues add each line's routes and catalog here.
 */
export type ProductLine =
  | 'residencial' | 'agricola' | 'maquinas' | 'empresarial' | 'empresarial-individual' | 'vida' | 'itens-pessoais';

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
}

export const SIMULATOR_CODES: readonly SimulatorCode[] = [
  { code: 'RES', name: 'Residencial', line: 'residencial', startUrl: '/simulador-residencial/cadastro', offerSuffix: 'RESIDENCIAL' },
  { code: 'AFU', name: 'Agrícola', line: 'agricola', startUrl: '/simulador-agricola/cadastro', offerSuffix: 'AGRICOLAFLEXULTRON' },
  { code: 'AFS', name: 'Agrícola (antigo)', line: 'agricola', startUrl: '/api/plataforma/v1/simuladores/redirect?tipo=AFS', offerSuffix: 'AGRICOLAFLEX', external: true },
  { code: 'MU', name: 'Máquinas e Equipamentos', line: 'maquinas', startUrl: '/simulador-maquinas/cadastro', offerSuffix: 'MAQUINAULTRON' },
  { code: 'EAU', name: 'Empresarial', line: 'empresarial', startUrl: '/simulador-empresarial/cadastro', offerSuffix: 'EMPRESARIAL' },
  { code: 'EVI', name: 'Empresarial Individual', line: 'empresarial-individual', startUrl: '/v2/simulador-empresarial-individual/cadastro/iniciar', offerSuffix: 'EMPRESARIAL_ALELO' },
  { code: 'VEU', name: 'Vida', line: 'vida', startUrl: '/simulador-vida/cadastro', offerSuffix: 'VIDAESSENCIALULTRON' },
  { code: 'IPU', name: 'Itens Pessoais', line: 'itens-pessoais', startUrl: '/v2/simulador-itens-pessoais/cadastro/iniciar', offerSuffix: 'ITENS_PESSOAIS' },
  { code: 'EMP', name: 'Empresarial (antigo)', line: 'empresarial', startUrl: '/emissao/consulta-cotacao/iniciar/empresarial', offerSuffix: 'EMPRESARIAL', productGroup: '0118' },
  { code: 'IP', name: 'Itens Pessoais (antigo)', line: 'itens-pessoais', startUrl: '/emissao/itens-pessoais/iniciar/itens-pessoais', offerSuffix: 'ITENS_PESSOAIS', productGroup: '0171' },
  { code: 'VE', name: 'Vida Essencial', line: 'vida', startUrl: '/emissao/cotacao/vida/nova-cotacao', offerSuffix: 'VIDAESSENCIAL', productGroup: '1391' },
  { code: 'PR', name: 'Patrimônio Rural', line: 'agricola', startUrl: '/simulador-agricola/cadastro', offerSuffix: 'PATRIMONIO_RURAL' },
  { code: 'FL', name: 'Floresta', line: 'agricola', startUrl: '/simulador-agricola/cadastro', offerSuffix: 'FLORESTA' },
  { code: 'PRS', name: 'Penhor Rural', line: 'agricola', startUrl: '/simulador-agricola/cadastro', offerSuffix: 'PENHOR_RURAL' },
  { code: 'VG', name: 'Vida Flex', line: 'vida', startUrl: '/simulador-vida/cadastro', offerSuffix: 'VIDAFLEX' },
];

export const findSimulatorCode = (code: string): SimulatorCode | undefined =>
  SIMULATOR_CODES.find((s) => s.code === code.toUpperCase());
