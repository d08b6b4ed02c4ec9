import { dueDates } from './contracting';
import { BANKS, RELATIONSHIPS } from './contracting';
import { formatIsoDate } from './format';
import { PAYMENT_METHODS, installmentSchedule } from './products/engine';
import { formatBRL } from './products/money';
import type { AnswerValue, ProductDef, Question } from './products/types';
import type { QuoteView } from './quotes';
import { formatCnpj, formatCpf } from './validators';

/**
 * A quote as lines of text: what the resumo page and the PDF both show, formatted once here so the
 * screen and the document never disagree.
 */
export interface Line {
  label: string;
  value: string;
}

export function formatAnswer(question: Question, value: AnswerValue | undefined): string {
  if (value === undefined || value === '') return '—';
  switch (question.kind) {
    case 'money': return formatBRL(Number(value));
    case 'area': return `${Number(value).toLocaleString('pt-BR')} m²`;
    case 'boolean': return value ? 'Sim' : 'Não';
    case 'date': return formatIsoDate(String(value));
    case 'select':
    case 'radio': return question.options?.find((o) => o.value === value)?.label ?? String(value);
    default: return String(value);
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function insuredLines(segurado: Record<string, unknown>): Line[] {
  const address = (segurado.endereco ?? {}) as Record<string, unknown>;
  const identity: Line[] = segurado.tipoPessoa === 'PJ'
    ? [{ label: 'Razão social', value: text(segurado.razaoSocial) }, { label: 'CNPJ', value: formatCnpj(text(segurado.cnpj)) }]
    : [
      { label: 'Nome', value: text(segurado.nome) },
      { label: 'CPF', value: formatCpf(text(segurado.cpf)) },
      { label: 'Data de nascimento', value: formatIsoDate(text(segurado.dataNascimento)) },
    ];
  const phone = text(segurado.telefone).replace(/^(\d{2})(\d{4,5})(\d{4})$/, '($1) $2-$3');
  return [...identity, { label: 'E-mail', value: text(segurado.email) }, { label: 'Telefone', value: phone },
    { label: 'Endereço', value: addressLine(address) }];
}

export function addressLine(address: Record<string, unknown>): string {
  const cep = text(address.cep).replace(/^(\d{5})(\d{3})$/, '$1-$2');
  const street = [text(address.logradouro), text(address.numero), text(address.complemento)].filter(Boolean).join(', ');
  return `${street} — ${text(address.bairro)}, ${text(address.cidade)}/${text(address.uf)} — CEP ${cep}`;
}

export function answerLines(product: ProductDef, quote: Pick<QuoteView, 'respostas' | 'risco'>): Line[] {
  return [
    ...product.cadastroQuestions.map((q) => ({ label: q.label, value: formatAnswer(q, quote.respostas[q.name]) })),
    ...(quote.risco ? product.riskQuestions.map((q) => ({ label: q.label, value: formatAnswer(q, quote.risco?.[q.name]) })) : []),
  ];
}

export const paymentMethodLabel = (value: string) => PAYMENT_METHODS.find((m) => m.value === value)?.label ?? value;
export const relationshipLabel = (value: string) => RELATIONSHIPS.find((r) => r.value === value)?.label ?? value;
export const bankLabel = (value: string) => BANKS.find((b) => b.value === value)?.label ?? value;

export interface InstallmentLine {
  number: number;
  dueDate: string;
  value: number;
}

/** The installments of the chosen option with their due dates, counted from `fromIso` (a 'YYYY-MM-DD'). */
export function installmentLines(contracting: NonNullable<QuoteView['contratacao']>, fromIso: string): InstallmentLine[] {
  const values = installmentSchedule(contracting.opcao);
  const dates = dueDates(fromIso, contracting.diaVencimento, values.length);
  return values.map((value, i) => ({ number: i + 1, dueDate: formatIsoDate(dates[i]!), value }));
}

/** The partner's remuneration on the net premium (CNSP 382/2020 asks that the client be told it). */
export const commissionOf = (netPremium: number, percent: number) => Math.round((netPremium * percent) / 100);
