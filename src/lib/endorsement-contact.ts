import type { InsuredContact } from './endorsements';
import { addressLine, formatPhone } from './quote-summary';

/*
 * The contact endorsement's rules that need no database (issue 14): whether anything changed, and
 * the contact as the home, the policy and the endorsement PDF print it.
 */

export const CONTACT_MESSAGES = {
  unchanged: 'Nenhum dado foi alterado.',
} as const;

/** The contact as comparable text: an empty complement and an absent one are the same address. */
const canonical = (contact: InsuredContact) => ({
  email: contact.email.trim().toLowerCase(),
  telefone: contact.telefone.replace(/\D/g, ''),
  cep: contact.endereco.cep.replace(/\D/g, ''),
  logradouro: contact.endereco.logradouro.trim(),
  numero: contact.endereco.numero.trim(),
  complemento: (contact.endereco.complemento ?? '').trim(),
  bairro: contact.endereco.bairro.trim(),
  cidade: contact.endereco.cidade.trim(),
  uf: contact.endereco.uf.toUpperCase(),
});

/** Whether two contacts say the same thing however they were typed (the schema's output on both sides). */
export function sameContact(a: InsuredContact, b: InsuredContact): boolean {
  const left = canonical(a);
  const right = canonical(b);
  return (Object.keys(left) as (keyof typeof left)[]).every((key) => left[key] === right[key]);
}

/** What a contact endorsement changed, as the insured's notice names it: 'e-mail', 'telefone', 'endereço'. */
export function changedContactParts(before: InsuredContact, after: InsuredContact): string[] {
  const [left, right] = [canonical(before), canonical(after)];
  const differs = (...keys: (keyof typeof left)[]) => keys.some((key) => left[key] !== right[key]);
  return [
    differs('email') && 'e-mail',
    differs('telefone') && 'telefone',
    differs('cep', 'logradouro', 'numero', 'complemento', 'bairro', 'cidade', 'uf') && 'endereço',
  ].filter((part): part is string => Boolean(part));
}

/** The three lines of a contact, as every screen and document shows them. */
export function contactLines(contact: InsuredContact): { label: string; value: string }[] {
  return [
    { label: 'E-mail', value: contact.email },
    { label: 'Telefone', value: formatPhone(contact.telefone) },
    { label: 'Endereço', value: addressLine(contact.endereco as unknown as Record<string, unknown>) },
  ];
}

/** Before and after, line by line, each marked when it changed: the endorsement's page and PDF. */
export function contactChanges(before: InsuredContact, after: InsuredContact) {
  const old = contactLines(before);
  return contactLines(after).map((line, i) => ({
    label: line.label,
    before: old[i]!.value,
    after: line.value,
    changed: old[i]!.value !== line.value,
  }));
}
