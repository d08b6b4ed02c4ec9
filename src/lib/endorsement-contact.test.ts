import { describe, expect, it } from 'vitest';
import type { InsuredContact } from './endorsements';
import { contactChanges, contactLines, sameContact } from './endorsement-contact';
import { ENDORSEMENT_CLOSED, ENDORSEMENT_PATHS, offeredEndorsements } from './endorsement-home';

const CONTACT: InsuredContact = {
  email: 'marina.alves@exemplo.com.br',
  telefone: '11987654321',
  endereco: { cep: '01310100', logradouro: 'Avenida Paulista', numero: '120', bairro: 'Bela Vista', cidade: 'São Paulo', uf: 'SP' },
};
const withAddress = (change: Partial<InsuredContact['endereco']>): InsuredContact => ({
  ...CONTACT,
  endereco: { ...CONTACT.endereco, ...change },
});

describe('sameContact', () => {
  it.each([
    ['the same contact', CONTACT, true],
    ['the e-mail in capitals', { ...CONTACT, email: 'MARINA.ALVES@exemplo.com.br' }, true],
    ['the phone with its mask', { ...CONTACT, telefone: '(11) 98765-4321' }, true],
    ['an empty complement for none', withAddress({ complemento: '' }), true],
    ['the CEP with its hyphen', withAddress({ cep: '01310-100' }), true],
    ['another e-mail', { ...CONTACT, email: 'marina@exemplo.com.br' }, false],
    ['another phone', { ...CONTACT, telefone: '11912345678' }, false],
    ['another number', withAddress({ numero: '121' }), false],
    ['a complement added', withAddress({ complemento: 'apto 3' }), false],
    ['another UF', withAddress({ uf: 'RJ' }), false],
  ])('%s → %s', (_, other, same) => expect(sameContact(CONTACT, other)).toBe(same));
});

describe('the contact as documents print it', () => {
  it('formats the phone and the address, and marks what changed', () => {
    expect(contactLines(CONTACT)).toEqual([
      { label: 'E-mail', value: 'marina.alves@exemplo.com.br' },
      { label: 'Telefone', value: '(11) 98765-4321' },
      { label: 'Endereço', value: 'Avenida Paulista, 120 — Bela Vista, São Paulo/SP — CEP 01310-100' },
    ]);
    expect(contactChanges(CONTACT, { ...CONTACT, telefone: '1132654321' }).map((c) => [c.label, c.changed, c.after])).toEqual([
      ['E-mail', false, 'marina.alves@exemplo.com.br'],
      ['Telefone', true, '(11) 3265-4321'],
      ['Endereço', false, 'Avenida Paulista, 120 — Bela Vista, São Paulo/SP — CEP 01310-100'],
    ]);
  });
});

describe('the endorsements a policy offers', () => {
  it.each([
    ['VIGENTE', ['Alterar dados cadastrais', 'Cancelar apólice']],
    // A renewal not begun yet: its data may change, and it may be cancelled from its first day.
    ['A_INICIAR', ['Alterar dados cadastrais', 'Cancelar apólice']],
    ['CANCELADA', []],
    ['VENCIDA', []],
  ] as const)('%s → %j', (status, labels) => {
    expect(offeredEndorsements(status).map((a) => a.label)).toEqual(labels);
    expect(ENDORSEMENT_CLOSED[status] === undefined).toBe(labels.length > 0);
  });

  it('leads to SPEC §2’s routes in each generation', () => {
    const policy = { nrProposta: '202600000002', idContratacao: 100002 };
    expect(offeredEndorsements('VIGENTE').map((a) => a.href('v2', policy))).toEqual([
      '/v2/endosso/contato/202600000002/100002',
      '/v2/endosso/cancelamento/motivo?contratacao=100002',
    ]);
    expect(offeredEndorsements('VIGENTE').map((a) => a.href('v1', policy))).toEqual([
      '/endosso/contato/202600000002/100002',
      '/endosso/cancelamento/motivo?contratacao=100002',
    ]);
    expect(ENDORSEMENT_PATHS.home('v1', 100002)).toBe('/endosso/home/100002');
  });
});
