import { describe, expect, it } from 'vitest';
import { findOfferTab, offersOfTab } from './legacy-offers';
import { offerSituation } from './offer-validity';

describe('offerSituation', () => {
  const offer = { ativo: true, vigenciaInicio: '2026-01-01', vigenciaFim: '2026-12-31' };
  it.each([
    ['2025-12-31', 'A_INICIAR'],
    ['2026-01-01', 'VIGENTE'],
    ['2026-12-31', 'VIGENTE'],
    ['2027-01-01', 'ENCERRADA'],
  ])('on %s → %s', (today, expected) => {
    expect(offerSituation(offer, today)).toBe(expected);
  });
  it('an inactive offer is inactive whatever its dates', () => {
    expect(offerSituation({ ...offer, ativo: false }, '2026-06-01')).toBe('INATIVA');
  });
});

describe('legacy offer tabs', () => {
  const offers = [
    { code: 'RES', situacao: 'VIGENTE' as const },
    { code: 'RES', situacao: 'ENCERRADA' as const },
    { code: 'VEU', situacao: 'INATIVA' as const },
    { code: 'AFU', situacao: 'A_INICIAR' as const },
  ];
  it('knows its tabs and nothing else', () => {
    expect(findOfferTab('vigentes')).toBe('vigentes');
    expect(findOfferTab('encerradas')).toBe('encerradas');
    expect(findOfferTab('todas')).toBe('todas');
    expect(findOfferTab('toString')).toBeUndefined();
    expect(findOfferTab('outras')).toBeUndefined();
    expect(findOfferTab(undefined)).toBeUndefined();
  });
  it.each([
    ['vigentes', undefined, ['RES:VIGENTE']],
    ['encerradas', undefined, ['RES:ENCERRADA', 'VEU:INATIVA']],
    ['todas', undefined, ['RES:VIGENTE', 'RES:ENCERRADA', 'VEU:INATIVA', 'AFU:A_INICIAR']],
    ['todas', 'res', ['RES:VIGENTE', 'RES:ENCERRADA']],
    ['encerradas', 'VEU', ['VEU:INATIVA']],
    ['vigentes', 'XYZ', []],
    ['vigentes', '  ', ['RES:VIGENTE']],
  ] as const)('%s, product %s', (tab, produto, expected) => {
    expect(offersOfTab(offers, tab, produto).map((o) => `${o.code}:${o.situacao}`)).toEqual(expected);
  });
});
