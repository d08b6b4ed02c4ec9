import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $toasts, dismissToast, showToast, TOAST_DURATION_MS } from './toasts';

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    for (const toast of $toasts.get()) dismissToast(toast.id);
    vi.useRealTimers();
  });

  it('hides after 3000 ms (SPEC §9)', () => {
    expect(TOAST_DURATION_MS).toBe(3000);
    showToast({ kind: 'success', title: 'Salvo' });
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(2999);
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($toasts.get()).toEqual([]);
  });

  it('gives an error without words the SPEC §8 default title and text', () => {
    showToast({ kind: 'error' });
    expect($toasts.get()[0]).toMatchObject({
      kind: 'error',
      title: 'Erro ao realizar requisição',
      text: 'Tente novamente mais tarde!',
    });
  });

  it('shows the server message under the default error title', () => {
    showToast({ kind: 'error', text: 'Usuário não encontrado.' });
    expect($toasts.get()[0]).toMatchObject({ title: 'Erro ao realizar requisição', text: 'Usuário não encontrado.' });
  });

  it('keeps the title and text it is given', () => {
    showToast({ kind: 'info', title: 'Cotação salva', text: 'Nº 123' });
    expect($toasts.get()[0]).toMatchObject({ kind: 'info', title: 'Cotação salva', text: 'Nº 123' });
  });

  it('stacks toasts, each with its own id and its own timer', () => {
    const first = showToast({ kind: 'info', title: 'Um' });
    vi.advanceTimersByTime(1000);
    const second = showToast({ kind: 'success', title: 'Dois' });
    expect(second).not.toBe(first);
    expect($toasts.get().map((t) => t.title)).toEqual(['Um', 'Dois']);
    vi.advanceTimersByTime(2000);
    expect($toasts.get().map((t) => t.title)).toEqual(['Dois']);
    vi.advanceTimersByTime(1000);
    expect($toasts.get()).toEqual([]);
  });

  it('dismisses a toast at once and forgets its timer', () => {
    const id = showToast({ kind: 'error' });
    showToast({ kind: 'info', title: 'Outro' });
    dismissToast(id);
    expect($toasts.get().map((t) => t.title)).toEqual(['Outro']);
    expect(vi.getTimerCount()).toBe(1);
    dismissToast(id);
    dismissToast(9999);
    expect($toasts.get()).toHaveLength(1);
  });
});
