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

/** SUSEP branches (ramos) by the code that opens a policy number (services/policies.ts). ILLUSTRATIVE names. */
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
