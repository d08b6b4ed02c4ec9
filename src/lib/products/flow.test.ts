import { describe, expect, it } from 'vitest';
import { PRODUCTS } from './catalog';
import { flowOf, lineFlow } from './flow';

describe('lineFlow', () => {
  it('is the flow of every product of the line', () => {
    for (const product of Object.values(PRODUCTS)) expect(flowOf(product)).toEqual(lineFlow(product.line));
  });

  it('gives risco to the lines SPEC §4 names, and finalizacao to residential', () => {
    expect(lineFlow('residencial')).toEqual({ hasRisk: false, finalStep: 'finalizacao' });
    expect(lineFlow('vida')).toEqual({ hasRisk: false, finalStep: 'proposta' });
    for (const line of ['agricola', 'maquinas', 'empresarial', 'itens-pessoais'] as const) expect(lineFlow(line).hasRisk).toBe(true);
  });
});
