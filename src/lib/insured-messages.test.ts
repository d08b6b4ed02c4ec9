import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  insuredSendSchema,
  isReminderDue,
  maskedEmail,
  optOutKeys,
  reminderOutcome,
  reminderWindow,
  sendableInstallments,
  whatsappHref,
  type ReminderCandidate,
} from './insured-messages';
import { CHARGED_METHODS } from './charges';

describe('when each reminder is due', () => {
  it('the boleto: from three days before the due date until it', () => {
    expect(reminderWindow('BOLETO', '2026-12-07')).toEqual({ first: '2026-12-07', last: '2026-12-10' });
    expect(isReminderDue('BOLETO', '2026-12-10', '2026-12-06')).toBe(false);
    expect(isReminderDue('BOLETO', '2026-12-10', '2026-12-07')).toBe(true);
    expect(isReminderDue('BOLETO', '2026-12-10', '2026-12-10')).toBe(true);
    expect(isReminderDue('BOLETO', '2026-12-10', '2026-12-11')).toBe(false);
  });

  it('the overdue notice: from the day after the due date, for ten days', () => {
    expect(isReminderDue('ATRASO', '2026-12-10', '2026-12-10')).toBe(false);
    expect(isReminderDue('ATRASO', '2026-12-10', '2026-12-11')).toBe(true);
    expect(isReminderDue('ATRASO', '2026-12-10', '2026-12-20')).toBe(true);
    expect(isReminderDue('ATRASO', '2026-12-10', '2026-12-21')).toBe(false);
  });

  it('the end of term: from 30 days before the last day (across a month and a year)', () => {
    expect(isReminderDue('FIM_VIGENCIA', '2027-01-15', '2026-12-15')).toBe(false);
    expect(isReminderDue('FIM_VIGENCIA', '2027-01-15', '2026-12-16')).toBe(true);
    expect(isReminderDue('FIM_VIGENCIA', '2027-01-15', '2027-01-15')).toBe(true);
    expect(isReminderDue('FIM_VIGENCIA', '2027-01-15', '2027-01-16')).toBe(false);
  });
});

describe('which installments and policies qualify', () => {
  const open: ReminderCandidate = {
    policyStatus: 'VIGENTE',
    installmentStatus: 'ABERTA',
    formaPagamento: 'boleto',
    email: 'a@b.com',
    optedOut: false,
  };
  const outcome = (kind: 'BOLETO' | 'ATRASO' | 'FIM_VIGENCIA', c: Partial<ReminderCandidate>) =>
    reminderOutcome(kind, { ...open, ...c }, CHARGED_METHODS);

  it('an open installment of a policy in force, paid by boleto or Pix, with an e-mail: sent', () => {
    expect(outcome('BOLETO', {})).toBe('ENVIADO');
    expect(outcome('ATRASO', { formaPagamento: 'pix' })).toBe('ENVIADO');
  });
  it('never a paid or cancelled installment, a cancelled policy, or a card policy', () => {
    expect(outcome('BOLETO', { installmentStatus: 'PAGA' })).toBe('ENCERRADO');
    expect(outcome('ATRASO', { installmentStatus: 'CANCELADA' })).toBe('ENCERRADO');
    expect(outcome('BOLETO', { policyStatus: 'CANCELADA' })).toBe('ENCERRADO');
    expect(outcome('FIM_VIGENCIA', { policyStatus: 'CANCELADA', installmentStatus: null })).toBe('ENCERRADO');
    expect(outcome('BOLETO', { formaPagamento: 'cartao' })).toBe('ENCERRADO');
  });
  it('the end of term whatever the method; nobody without an e-mail; nobody who opted out', () => {
    expect(outcome('FIM_VIGENCIA', { installmentStatus: null, formaPagamento: 'cartao' })).toBe('ENVIADO');
    expect(outcome('BOLETO', { email: '' })).toBe('SEM_EMAIL');
    expect(outcome('FIM_VIGENCIA', { installmentStatus: null, optedOut: true })).toBe('DESCADASTRADO');
  });
});

describe('the opt-out’s scope', () => {
  it('is the insured’s document and e-mail, normalised — not one policy', () => {
    expect(optOutKeys({ documento: '274.185.963-91', email: ' Marina.Alves@Exemplo.com.br ' })).toEqual([
      'doc:27418596391',
      'email:marina.alves@exemplo.com.br',
    ]);
    expect(optOutKeys({ documento: '', email: '' })).toEqual([]);
  });
});

describe('sending from the policy page', () => {
  it('takes another address, normalised, and refuses a bad one in pt-BR', () => {
    expect(z.parse(insuredSendSchema, { tipo: 'apolice', email: ' A@B.COM ' })).toEqual({ tipo: 'apolice', email: 'a@b.com' });
    const bad = z.safeParse(insuredSendSchema, { tipo: 'boleto', numero: 1, email: 'a@' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['email'], message: 'E-mail inválido' });
    expect(z.safeParse(insuredSendSchema, { tipo: 'outro' }).error?.issues[0]?.message).toBe('Escolha o que enviar.');
  });
  it('shows the insured’s address masked, and shares by wa.me', () => {
    expect(maskedEmail('marina.alves@exemplo.com.br')).toBe('m******s@exemplo.com.br');
    expect(maskedEmail('ab@x.com')).toBe('a***@x.com');
    expect(whatsappHref('Olá & até')).toBe('https://wa.me/?text=Ol%C3%A1%20%26%20at%C3%A9');
  });
});

describe('what the policy page offers to send (issue 42 item 16)', () => {
  it('each open installment: the payable as they are, the overdue with the 2ª via its send issues', () => {
    const today = '2026-12-12';
    expect(
      sendableInstallments({ 1: { vencimento: '2026-12-10' }, 2: { vencimento: '2026-12-12' }, 3: { vencimento: '2027-01-10' } }, today),
    ).toEqual([
      {
        numero: 1,
        vencimento: '10/12/2026',
        nota: 'Vencida: ao enviar, emitimos a 2ª via com vencimento em 15/12/2026, com multa e juros até esse dia.',
      },
      { numero: 2, vencimento: '12/12/2026' },
      { numero: 3, vencimento: '10/01/2027' },
    ]);
    expect(sendableInstallments({}, today)).toEqual([]);
  });
});
