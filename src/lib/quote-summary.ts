import { asksDueDay, BANKS, contractDueDates, FIRST_DUE_AFTER_DAYS, RELATIONSHIPS, type Contracting } from './contracting';
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
  /** A value long enough to want a whole row of a document's grid (a bank account). */
  wide?: boolean;
}

export function formatAnswer(question: Question, value: AnswerValue | undefined): string {
  if (value === undefined || value === '') return '—';
  switch (question.kind) {
    case 'money':
      return formatBRL(Number(value));
    case 'area':
      return `${Number(value).toLocaleString('pt-BR')} m²`;
    case 'boolean':
      return value ? 'Sim' : 'Não';
    case 'date':
      return formatIsoDate(String(value));
    case 'select':
    case 'radio':
      return question.options?.find((o) => o.value === value)?.label ?? String(value);
    default:
      return String(value);
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function insuredLines(segurado: Record<string, unknown>): Line[] {
  const address = (segurado.endereco ?? {}) as Record<string, unknown>;
  const identity: Line[] =
    segurado.tipoPessoa === 'PJ'
      ? [
          { label: 'Razão social', value: text(segurado.razaoSocial) },
          { label: 'CNPJ', value: formatCnpj(text(segurado.cnpj)) },
        ]
      : [
          { label: 'Nome', value: text(segurado.nome) },
          { label: 'CPF', value: formatCpf(text(segurado.cpf)) },
          { label: 'Data de nascimento', value: formatIsoDate(text(segurado.dataNascimento)) },
        ];
  const phone = formatPhone(text(segurado.telefone));
  return [
    ...identity,
    { label: 'E-mail', value: text(segurado.email) },
    { label: 'Telefone', value: phone },
    { label: 'Endereço', value: addressLine(address) },
  ];
}

/** '11987654321' → '(11) 98765-4321'; a landline's eight digits too. */
export const formatPhone = (digits: string): string => digits.replace(/^(\d{2})(\d{4,5})(\d{4})$/, '($1) $2-$3');

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

/**
 * The installments of the chosen option with their due dates, counted from `fromIso` — the day the
 * policy was issued, or today in Brasília before that (QuoteView.vencimentosDesde): the dates the
 * policy charges (lib/policies.ts contractDueDates, decision 074).
 */
export function installmentLines(contracting: NonNullable<QuoteView['contratacao']>, fromIso: string): InstallmentLine[] {
  const values = installmentSchedule(contracting.opcao);
  const dates = contractDueDates(contracting, fromIso, values.length);
  return values.map((value, i) => ({ number: i + 1, dueDate: formatIsoDate(dates[i]!), value }));
}

/** '341 — Itaú Unibanco · Ag. 0123 · C/C 123456': the account a debit is drawn from. */
export const debitAccountLine = (debito: NonNullable<Contracting['debito']>) =>
  `${bankLabel(debito.banco)} · Ag. ${debito.agencia} · C/C ${debito.conta}`;

/**
 * How the quote is paid, as the resumo and the proposal PDF both show it: the method, when it is due
 * ('Dia 10' each month, or a few days after the policy is issued for Pix, with that day) and the debit
 * account. `fromIso` is the policy's issue day once `issued`, else today in Brasília: before issuance
 * the dates are those of a policy issued today, and the resumo says so (decision 074).
 */
export function paymentLines(
  contracting: Pick<Contracting, 'formaPagamento' | 'diaVencimento' | 'debito'>,
  fromIso: string,
  issued: boolean,
): Line[] {
  const first = formatIsoDate(contractDueDates(contracting, fromIso, 1)[0]!);
  const due = asksDueDay(contracting.formaPagamento)
    ? `Dia ${contracting.diaVencimento}`
    : issued
      ? `À vista, em ${first} (${FIRST_DUE_AFTER_DAYS} dias após a emissão da apólice)`
      : `À vista, ${FIRST_DUE_AFTER_DAYS} dias após a emissão da apólice (${first}, se emitida hoje)`;
  return [
    { label: 'Forma de pagamento', value: paymentMethodLabel(contracting.formaPagamento) },
    { label: 'Vencimento', value: due },
    ...(issued
      ? []
      : [
          {
            label: 'Datas',
            value: `Contadas da emissão da apólice: as parcelas abaixo valem para emissão hoje, ${formatIsoDate(fromIso)}`,
          },
        ]),
    ...(contracting.debito ? [{ label: 'Conta para débito', value: debitAccountLine(contracting.debito), wide: true }] : []),
  ];
}

/** Under the coverages on the resumo and in the PDFs: how their premiums relate to the net premium (decision 023). */
export const COVERAGE_PREMIUM_NOTE =
  'O prêmio de cada cobertura já inclui os fatores de risco e, quando aplicado, o prêmio mínimo: a soma é o prêmio líquido.';

/** The partner's remuneration on the net premium (CNSP 382/2020 asks that the client be told it). */
export const commissionOf = (netPremium: number, percent: number) => Math.round((netPremium * percent) / 100);
