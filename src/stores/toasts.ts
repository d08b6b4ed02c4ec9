import { atom } from 'nanostores';
import { DEFAULT_ERROR } from '../lib/http';

/** SPEC §9: toasts hide themselves after 3000 ms. */
export const TOAST_DURATION_MS = 3000;

export type ToastKind = 'error' | 'success' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  title: string;
  text?: string;
}

export interface ToastInput {
  kind: ToastKind;
  title?: string;
  text?: string;
}

/** What a toast says when the caller leaves out its title or text (SPEC §8 for errors). */
export const TOAST_DEFAULTS: Record<ToastKind, { title: string; text?: string }> = {
  error: { title: DEFAULT_ERROR.title, text: DEFAULT_ERROR.text },
  success: { title: 'Operação realizada com sucesso.' },
  info: { title: 'Aviso' },
};

/** The toasts on screen, oldest first. Islands render them with <Toaster />. */
export const $toasts = atom<readonly Toast[]>([]);

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

/** Shows a toast that hides itself after TOAST_DURATION_MS; returns its id. */
export function showToast({ kind, title, text }: ToastInput): number {
  const id = nextId++;
  const defaults = TOAST_DEFAULTS[kind];
  const toast: Toast = { id, kind, title: title ?? defaults.title };
  const body = text ?? defaults.text;
  if (body !== undefined) toast.text = body;
  $toasts.set([...$toasts.get(), toast]);
  timers.set(
    id,
    setTimeout(() => dismissToast(id), TOAST_DURATION_MS),
  );
  return id;
}

/** Hides a toast now (its close button); unknown ids are ignored. */
export function dismissToast(id: number): void {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
  const toasts = $toasts.get();
  if (toasts.some((toast) => toast.id === id)) $toasts.set(toasts.filter((toast) => toast.id !== id));
}
