import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Stepper } from './Stepper';

const STEPS = [
  { id: 'cadastro', label: 'Cadastro', href: '/cotacao/1/cadastro' },
  { id: 'risco', label: 'Risco' },
  { id: 'planos', label: 'Planos', href: '/cotacao/1/planos' },
  { id: 'resumo', label: 'Resumo', href: '/cotacao/1/resumo' },
];

describe('Stepper', () => {
  const html = renderToStaticMarkup(createElement(Stepper, { steps: STEPS, current: 'planos', label: 'Etapas da cotação' }));

  it('marks the current step', () => {
    expect(html.match(/aria-current="step"/g)).toHaveLength(1);
    expect(html).toMatch(/<span class="stepper-item" aria-current="step">.*Planos/);
  });

  it('links completed steps that have an address, and only those', () => {
    expect(html).toContain('<a class="stepper-item" href="/cotacao/1/cadastro">');
    expect(html).not.toContain('href="/cotacao/1/planos"');
    expect(html).not.toContain('href="/cotacao/1/resumo"');
    expect(html.match(/\(concluída\)/g)).toHaveLength(2);
  });

  it('is an ordered list in a named nav', () => {
    expect(html).toMatch(/^<nav class="stepper" aria-label="Etapas da cotação"><ol/);
  });
});
