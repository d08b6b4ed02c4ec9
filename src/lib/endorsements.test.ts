import { describe, expect, it } from 'vitest';
import { CANCELLATION_REASONS, reasonLabel, reasonText } from './endorsements';

describe('a cancellation reason in words', () => {
  it('labels every code of the table, by who asks', () => {
    for (const requester of ['SEGURADO', 'SEGURADORA'] as const)
      for (const { value, label } of CANCELLATION_REASONS[requester]) {
        expect(reasonLabel(requester, value)).toBe(label);
        expect(reasonText(requester, value)).toBe(label);
      }
  });

  it.each([
    // As services/after-sale/cancellation.ts stores a reason with what the requester added: 'CODE: detail'.
    ['SEGURADO', 'OUTRO_SEGURO: Seguro incluído no financiamento', 'Contratou outro seguro — Seguro incluído no financiamento'],
    ['SEGURADO', 'OUTRO_SEGURO', 'Contratou outro seguro'],
    ['SEGURADO', 'OUTRO: Mudou-se para o exterior: sem imóvel no Brasil', 'Outro motivo — Mudou-se para o exterior: sem imóvel no Brasil'],
    ['SEGURADORA', 'FALTA_PAGAMENTO: 2ª e 3ª parcelas', 'Falta de pagamento — 2ª e 3ª parcelas'],
  ] as const)('%s %s → %s', (requester, stored, text) => expect(reasonText(requester, stored)).toBe(text));

  it('never shows a code: one of the other requester’s table is labelled, an unknown one is said to be so', () => {
    expect(reasonText('SEGURADO', 'FALTA_PAGAMENTO')).toBe('Falta de pagamento');
    expect(reasonText('SEGURADO', 'MOTIVO_ANTIGO: detalhe')).toBe('Motivo não informado — detalhe');
    expect(reasonText('SEGURADO', null)).toBe('Motivo não informado');
    expect(reasonText('SEGURADO', '')).toBe('Motivo não informado');
  });
});
