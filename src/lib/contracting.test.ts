import { describe, expect, it } from 'vitest';
import { FULL_NAME_MESSAGES } from './full-name';
import * as z from 'zod/mini';
import { contractingSchema, dueDates, earliestDueDay } from './contracting';
import { addDays, daysBetween } from './calendar';

const messages = (value: unknown) => {
  const result = z.safeParse(contractingSchema, value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('contractingSchema', () => {
  it('accepts a boleto in 3 installments and a bank debit with masked numbers', () => {
    expect(messages({ formaPagamento: 'boleto', parcelas: 3, diaVencimento: 10 })).toEqual([]);
    const debit = z.parse(contractingSchema, {
      formaPagamento: 'debito',
      parcelas: 12,
      diaVencimento: 5,
      debito: { banco: '341', agencia: '0123', conta: '12345-6' },
    });
    expect(debit.debito).toEqual({ banco: '341', agencia: '0123', conta: '123456' });
  });

  it('names every wrong field in pt-BR', () => {
    expect(messages({ formaPagamento: 'cheque', parcelas: 0, diaVencimento: 31 })).toEqual([
      'formaPagamento: Escolha a forma de pagamento.',
      'parcelas: Escolha o número de parcelas.',
      'diaVencimento: Escolha o dia de vencimento.',
    ]);
  });

  it('asks no due day for Pix, which is paid at once; every other method needs one', () => {
    expect(messages({ formaPagamento: 'pix', parcelas: 1 })).toEqual([]);
    expect(messages({ formaPagamento: 'boleto', parcelas: 1 })).toEqual(['diaVencimento: Escolha o dia de vencimento.']);
  });

  it('asks for the bank account of a debit', () => {
    expect(messages({ formaPagamento: 'debito', parcelas: 1, diaVencimento: 5 })).toEqual(['debito.banco: Escolha o banco.']);
  });

  it('needs beneficiary shares that sum to 100 %', () => {
    const base = { formaPagamento: 'cartao', parcelas: 1, diaVencimento: 15 };
    const ana = { nome: 'Ana Maria Souza', parentesco: 'conjuge', percentual: 60 };
    expect(messages({ ...base, beneficiarios: [ana, { ...ana, nome: 'João Souza', parentesco: 'filho', percentual: 40 }] })).toEqual([]);
    expect(messages({ ...base, beneficiarios: [ana] })).toEqual(['beneficiarios: Os percentuais dos beneficiários devem somar 100%.']);
    expect(messages({ ...base, beneficiarios: [{ ...ana, nome: 'Al', percentual: 100 }] })).toEqual([
      'beneficiarios.0.nome: Informe o nome completo do beneficiário.',
    ]);
    expect(messages({ ...base, beneficiarios: [{ ...ana, nome: `Ana ${'a'.repeat(400)}`, percentual: 100 }] })).toEqual([
      'beneficiarios.0.nome: Use no máximo 120 caracteres.',
    ]);
    // The portal's one full-name rule (decision 060): two words of letters, no stray characters.
    expect(messages({ ...base, beneficiarios: [{ ...ana, nome: 'Filho 1', percentual: 100 }] })).toEqual([
      'beneficiarios.0.nome: Informe o nome completo do beneficiário.',
    ]);
    expect(messages({ ...base, beneficiarios: [{ ...ana, nome: 'Ana <Souza>', percentual: 100 }] })).toEqual([
      `beneficiarios.0.nome: ${FULL_NAME_MESSAGES.characters('< >')}`,
    ]);
  });
});

describe('dueDates', () => {
  it('puts the first due day at least 5 days ahead, then monthly', () => {
    expect(dueDates('2026-11-22', 10, 3)).toEqual(['2026-12-10', '2027-01-10', '2027-02-10']);
    expect(dueDates('2026-11-22', 25, 2)).toEqual(['2026-12-25', '2027-01-25']);
    expect(dueDates('2026-11-20', 25, 1)).toEqual(['2026-11-25']);
    expect(dueDates('2026-11-21', 25, 1)).toEqual(['2026-12-25']);
  });
});

describe('earliestDueDay', () => {
  it('puts the first installment 5 to 15 days after the sale, any day of the year', () => {
    for (let i = 0; i < 366; i++) {
      const sold = addDays('2026-01-01', i);
      const [first] = dueDates(sold, earliestDueDay(sold), 1);
      expect(daysBetween(sold, first!), sold).toBeGreaterThanOrEqual(5);
      expect(daysBetween(sold, first!), sold).toBeLessThanOrEqual(15);
    }
  });
});
