/**
 * What a step form had typed but not saved, kept across a sign-in (docs/decisions/024-selling-flow.md).
 * When a session ends mid-form the save is refused and the user is sent to the login; the form
 * keeps its values here first, keyed by the step's address, and the same address restores them
 * once after the sign-in brings the user back. Pure: the caller passes the storage, which is the
 * tab's sessionStorage — never localStorage, so nothing outlives the tab or reaches another one.
 */
export interface DraftStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const PREFIX = 'portal:rascunho:';

/** A draft older than this is dropped unread: a sign-in comes back within minutes, not days. */
export const DRAFT_MAX_AGE_MS = 8 * 60 * 60 * 1000;

/** Fields never written to storage, whatever form keeps a draft. */
const SECRET_NAME = /senha|password|token|cart[aã]o|cvv/i;

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !SECRET_NAME.test(key))
        .map(([key, v]) => [key, withoutSecrets(v)]),
    );
  }
  return value;
}

const keyOf = (address: string) => `${PREFIX}${address}`;

/** Keeps the values typed at `address` (a path with its query), replacing any earlier draft of it. */
export function keepDraft(storage: DraftStorage, address: string, values: unknown, now = Date.now()): void {
  try {
    storage.setItem(keyOf(address), JSON.stringify({ savedAt: now, values: withoutSecrets(values) }));
  } catch {
    // A full or disabled storage only loses the convenience of restoring.
  }
}

export function dropDraft(storage: DraftStorage, address: string): void {
  try {
    storage.removeItem(keyOf(address));
  } catch {
    // Nothing to drop.
  }
}

/** The draft kept at `address`, removed as it is read (restored once); undefined if none or stale. */
export function takeDraft<T>(storage: DraftStorage, address: string, now = Date.now()): T | undefined {
  let text: string | null;
  try {
    text = storage.getItem(keyOf(address));
  } catch {
    return undefined;
  }
  if (text === null) return undefined;
  dropDraft(storage, address);
  try {
    const draft = JSON.parse(text) as { savedAt?: unknown; values?: unknown };
    const fresh = typeof draft.savedAt === 'number' && now - draft.savedAt <= DRAFT_MAX_AGE_MS && now >= draft.savedAt;
    return fresh && draft.values !== undefined ? (draft.values as T) : undefined;
  } catch {
    return undefined;
  }
}
