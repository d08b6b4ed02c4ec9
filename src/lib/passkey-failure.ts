/**
 * What a passkey ceremony's failure tells its person (decision 068): the browser's dialog closed, or
 * the key did not answer (WebAuthn's NotAllowedError), or the portal's own refusal. Imports nothing:
 * both passkey islands ship it.
 */
export const PASSKEY_NOT_CONFIRMED = 'A chave de acesso não foi confirmada.';

export const passkeyFailureMessage = (failure: unknown, apiMessage: string): string =>
  failure instanceof Error && failure.name === 'NotAllowedError' ? PASSKEY_NOT_CONFIRMED : apiMessage;
