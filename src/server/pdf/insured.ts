import { insuredLines } from '../../lib/quote-summary';
import type { Insured } from './writer';

/** The insured of a quote as the PDFs show them (the proposal's and the policy's alike), from the resumo's lines. */
export function insuredOf(segurado: Record<string, unknown>): Insured {
  const insured = Object.fromEntries(insuredLines(segurado).map((l) => [l.label, l.value]));
  return {
    name: insured.Nome ?? insured['Razão social'] ?? '',
    document: insured.CPF ?? insured.CNPJ ?? '',
    email: insured['E-mail'] ?? '',
    phone: insured.Telefone ?? '',
    address: insured.Endereço ?? '',
  };
}
