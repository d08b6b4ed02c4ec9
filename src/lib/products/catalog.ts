import { AGRICOLA, FLORESTA, PATRIMONIO_RURAL, PENHOR_RURAL } from './agricola';
import { EMPRESARIAL, EMPRESARIAL_ANTIGO } from './empresarial';
import { EMPRESARIAL_INDIVIDUAL } from './empresarial-individual';
import { ITENS_PESSOAIS, ITENS_PESSOAIS_ANTIGO } from './itens-pessoais';
import { MAQUINAS } from './maquinas';
import { RESIDENCIAL } from './residencial';
import type { ProductDef } from './types';
import { VIDA, VIDA_ESSENCIAL, VIDA_FLEX } from './vida';

/**
 * Every product the portal prices, keyed by simulator code (lib/simulators.ts). AFS has none: it
 * redirects to an external application. The tariff is illustrative
 * (docs/decisions/014-illustrative-tariff.md).
 */
export const PRODUCTS: Readonly<Record<string, ProductDef>> = Object.fromEntries(
  [
    RESIDENCIAL,
    AGRICOLA,
    PATRIMONIO_RURAL,
    FLORESTA,
    PENHOR_RURAL,
    MAQUINAS,
    EMPRESARIAL,
    EMPRESARIAL_ANTIGO,
    EMPRESARIAL_INDIVIDUAL,
    VIDA,
    VIDA_FLEX,
    VIDA_ESSENCIAL,
    ITENS_PESSOAIS,
    ITENS_PESSOAIS_ANTIGO,
  ].map((product) => [product.code, product]),
);

/** The product of a simulator code, in any case ('res', 'RES'); undefined for AFS and unknown codes. */
export const productFor = (code: string): ProductDef | undefined =>
  Object.hasOwn(PRODUCTS, code.toUpperCase()) ? PRODUCTS[code.toUpperCase()] : undefined;
