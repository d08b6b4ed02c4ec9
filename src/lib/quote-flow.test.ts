import { describe, expect, it } from 'vitest';
import { lineFlow } from './products/flow';
import { parseSimulatorRoute, stepPath, stepsOf, type Generation, type SimulatorRoute } from './quote-flow';
import { LEGACY_LINES, type ProductLine } from './simulators';

const parse = (generation: Generation, line: ProductLine, path: string) =>
  parseSimulatorRoute(generation, line, path.split('/').filter(Boolean), lineFlow(line));

const step = (name: string, nrCotacao: string, action: 'editar' | 'visualizar' = 'editar'): SimulatorRoute => ({
  kind: 'step',
  step: name as never,
  nrCotacao,
  action,
});
const resume = (name: string): SimulatorRoute => ({ kind: 'resume', step: name as never });
const NEW: SimulatorRoute = { kind: 'new' };

describe('legacy simulator routes (SPEC §2)', () => {
  // Every address SPEC §2 lists for the five legacy simulators, then the extra shapes that let every step resume.
  it.each<[ProductLine, string, SimulatorRoute | undefined]>([
    // residential: cadastro, contratacao, planos (plain and /{nr}/{action}); finalizacao plain
    ['residencial', 'cadastro', NEW],
    ['residencial', 'cadastro/2026000012/editar', step('cadastro', '2026000012')],
    ['residencial', 'contratacao', resume('contratacao')],
    ['residencial', 'contratacao/2026000012/visualizar', step('contratacao', '2026000012', 'visualizar')],
    ['residencial', 'planos', resume('planos')],
    ['residencial', 'planos/2026000012/editar', step('planos', '2026000012')],
    ['residencial', 'finalizacao', resume('finalizacao')],
    // agricultural: cadastro, risco, planos, contratacao (also {nr} only), resumo/{nr}/{nrType}, proposta
    ['agricola', 'cadastro', NEW],
    ['agricola', 'risco', resume('risco')],
    ['agricola', 'risco/7/editar', step('risco', '7')],
    ['agricola', 'planos/7/visualizar', step('planos', '7', 'visualizar')],
    ['agricola', 'contratacao/7', step('contratacao', '7')],
    ['agricola', 'contratacao/7/editar', step('contratacao', '7')],
    ['agricola', 'resumo/7/1', step('resumo', '7')],
    ['agricola', 'resumo/7/2', step('resumo', '7', 'visualizar')],
    ['agricola', 'resumo/7/3', undefined],
    ['agricola', 'proposta', resume('proposta')],
    ['agricola', 'proposta/7/visualizar', step('proposta', '7', 'visualizar')],
    // life: cadastro, resumo/{nr}, contratacao, planos, proposta
    ['vida', 'cadastro', NEW],
    ['vida', 'resumo/7', step('resumo', '7')],
    ['vida', 'contratacao/7/editar', step('contratacao', '7')],
    ['vida', 'planos', resume('planos')],
    ['vida', 'proposta/7/visualizar', step('proposta', '7', 'visualizar')],
    ['vida', 'risco', undefined],
    // machinery: cadastro, risco, planos, contratacao, proposta, resumo/{nr}
    ['maquinas', 'cadastro', NEW],
    ['maquinas', 'risco/7/editar', step('risco', '7')],
    ['maquinas', 'resumo/7', step('resumo', '7')],
    ['maquinas', 'proposta', resume('proposta')],
    // business: cadastro, risco, planos, contratacao, resumo, proposta
    ['empresarial', 'cadastro', NEW],
    ['empresarial', 'resumo', resume('resumo')],
    ['empresarial', 'resumo/7/editar', step('resumo', '7')],
    ['empresarial', 'finalizacao', undefined],
    // Extra shapes (decision 019): residential resumo and finalizacao by number; v2's start does not exist in legacy.
    ['residencial', 'resumo/7/visualizar', step('resumo', '7', 'visualizar')],
    ['residencial', 'finalizacao/7/visualizar', step('finalizacao', '7', 'visualizar')],
    ['residencial', 'proposta/7/visualizar', step('proposta', '7', 'visualizar')],
    ['residencial', 'cadastro/iniciar/1/1', undefined],
    ['residencial', 'cadastro/0/editar', undefined],
    ['residencial', 'cadastro/7/apagar', undefined],
    ['residencial', 'planos/7/editar/mais', undefined],
    ['residencial', 'risco', undefined],
  ])('/simulador-%s/%s', (line, path, expected) => {
    expect(parse('v1', line, path)).toEqual(expected);
  });

  /**
   * Issue 27: SPEC §2 gives every v2 simulator a risco route. On a line without risk questions
   * (residential, life, individual business) it was a 404 while the lines with risco resumed: now it
   * reads as the step that stands where risco would (planos), and the page redirects there.
   */
  const moved = (nrCotacao: string, action: 'editar' | 'visualizar' = 'editar'): SimulatorRoute => ({
    kind: 'step',
    step: 'planos',
    nrCotacao,
    action,
    moved: true,
  });
  it.each<[ProductLine, string, SimulatorRoute]>([
    ['empresarial-individual', 'risco', resume('planos')],
    ['empresarial-individual', 'risco/7/editar', moved('7')],
    ['residencial', 'risco/7/visualizar', moved('7', 'visualizar')],
    ['vida', 'risco', resume('planos')],
    ['empresarial', 'risco', resume('risco')],
    ['itens-pessoais', 'risco/7/editar', step('risco', '7')],
  ])('v2 /simulador-%s/%s', (line, path, expected) => {
    expect(parse('v2', line, path)).toEqual(expected);
  });

  it('keeps the v2 start and plain cadastro as they were', () => {
    expect(parse('v2', 'residencial', 'cadastro/iniciar/1/2')).toEqual({ kind: 'start', idSimulador: 1, nrOferta: 2 });
    expect(parse('v2', 'residencial', 'cadastro')).toEqual(resume('cadastro'));
  });
});

describe('stepPath', () => {
  it.each<[Generation, ProductLine, string, string, Parameters<typeof stepPath>[4], string]>([
    ['v1', 'residencial', 'planos', '7', {}, '/simulador-residencial/planos/7/editar'],
    ['v1', 'residencial', 'finalizacao', '7', {}, '/simulador-residencial/finalizacao'],
    ['v1', 'residencial', 'finalizacao', '7', { pinned: true, action: 'visualizar' }, '/simulador-residencial/finalizacao/7/visualizar'],
    ['v1', 'vida', 'resumo', '7', {}, '/simulador-vida/resumo/7'],
    ['v1', 'maquinas', 'resumo', '7', {}, '/simulador-maquinas/resumo/7'],
    ['v1', 'agricola', 'resumo', '7', { sent: true }, '/simulador-agricola/resumo/7/2'],
    ['v1', 'empresarial', 'resumo', '7', { action: 'visualizar' }, '/simulador-empresarial/resumo/7/visualizar'],
    ['v2', 'maquinas', 'resumo', '7', {}, '/v2/simulador-maquinas/resumo/7/editar'],
    ['v2', 'residencial', 'finalizacao', '7', {}, '/v2/simulador-residencial/finalizacao/7/editar'],
  ])('%s %s %s', (generation, line, name, nr, options, expected) => {
    expect(stepPath(generation, line, name as never, nr, options)).toBe(expected);
  });

  it('round-trips: every legacy step address reads back as that step of that quote', () => {
    for (const line of LEGACY_LINES) {
      const flow = lineFlow(line);
      for (const name of stepsOf(flow)) {
        for (const action of ['editar', 'visualizar'] as const) {
          const path = stepPath('v1', line, name, '2026000042', { action, sent: action === 'visualizar', pinned: true });
          const route = parseSimulatorRoute('v1', line, path.replace(`/simulador-${line}/`, '').split('/'), flow);
          expect(route, path).toMatchObject({ kind: 'step', step: name, nrCotacao: '2026000042' });
        }
      }
    }
  });

  it('plain legacy finalizacao reads back as a resume of the latest proposal', () => {
    const path = stepPath('v1', 'residencial', 'finalizacao', '7');
    expect(parse('v1', 'residencial', path.replace('/simulador-residencial/', ''))).toEqual(resume('finalizacao'));
  });
});
