import * as z from 'zod/mini';
import { V1_ADMIN_GROUP } from './permissions';

/*
 * The second factor at sign-in (issue 32, decision 068), pure: who must have one, the step's pages
 * and cookies, its messages and form schemas, and the shape of a recovery code. Written with zod/mini:
 * the step's form ships to the browser with the login pages.
 */

/** Where each generation's sign-in asks for the second factor (after the password, before the session). */
export const SECOND_FACTOR_PATH = { v1: '/signin/segundo-fator', v2: '/v2/login/segundo-fator' } as const;

/** The cookies of the step: the challenge between password and session, and a remembered browser. */
export const SECOND_FACTOR_COOKIES = { challenge: 'desafioSegundoFator', device: 'dispositivoConfiavel' } as const;
/** The same two secrets for an API client without cookies. */
export const SECOND_FACTOR_HEADERS = { challenge: 'x-desafio-segundo-fator', device: 'x-dispositivo-confiavel' } as const;

/** A challenge lasts long enough to open an authenticator app, not to be left lying around. */
export const CHALLENGE_MINUTES = 10;
/** Wrong codes a challenge takes before it ends (the account's own limit counts across challenges). */
export const CHALLENGE_ATTEMPTS = 5;
export const TRUSTED_DEVICE_DAYS = 30;
/**
 * A change to one's own second factor, recovery codes or remembered browsers asks the person to prove
 * it is them again (issue 42: a stolen session alone must not replace the factor); one proof covers
 * the changes of the next few minutes, on that session only.
 */
export const STEP_UP_MINUTES = 5;
/** The `codigo` of the API's 403 when that proof is missing or too old. */
export const STEP_UP_CODE = 'CONFIRMACAO_NECESSARIA';
export const RECOVERY_CODE_COUNT = 10;
/** The issuer an authenticator app shows beside the account. */
export const TOTP_ISSUER = 'Portal de Parceiros';

/** What decides the policy: the v2 profile code, or the legacy groups. */
export interface PolicySubject {
  generation: 'v1' | 'v2';
  profile: string | null;
  groups: readonly string[];
}

/**
 * Those who can change everyone's access must prove a second factor (issue 32): the insurer's ADMIN,
 * a partner's PARCEIRO_ADMIN and the legacy administrator group. Anyone else may enrol and is then
 * asked too.
 */
const REQUIRED_BY_POLICY: Record<'v1' | 'v2', (subject: PolicySubject) => boolean> = {
  v2: (subject) => ['ADMIN', 'PARCEIRO_ADMIN'].includes((subject.profile ?? '').toUpperCase()),
  v1: (subject) => subject.groups.includes(V1_ADMIN_GROUP),
};

export const secondFactorRequired = (subject: PolicySubject): boolean => REQUIRED_BY_POLICY[subject.generation](subject);

export const SECOND_FACTOR_MESSAGES = {
  codeFormat: 'Informe o código de 6 dígitos do aplicativo autenticador',
  wrongCode: 'Código inválido ou já utilizado. Aguarde o próximo código do aplicativo e tente novamente.',
  recoveryFormat: 'Informe um código de recuperação (12 letras e números)',
  wrongRecovery: 'Código de recuperação inválido ou já utilizado.',
  challengeGone: 'Sua verificação expirou ou não foi iniciada. Entre novamente com e-mail e senha.',
  tooManyAttempts: 'Muitas tentativas inválidas. Entre novamente com e-mail e senha.',
  passkeyFailed: 'Não foi possível confirmar a chave de acesso. Tente novamente ou use o aplicativo autenticador.',
  enrolFirst: 'Sua conta exige a verificação em duas etapas. Configure-a para continuar.',
  enrolmentExpired: 'A configuração expirou. Comece de novo para ver um novo QR code.',
  lastFactorRequired: 'Seu perfil exige a verificação em duas etapas: cadastre outro fator antes de remover o último.',
  stepUpNeeded:
    'Para alterar a verificação em duas etapas, os códigos de recuperação ou os dispositivos lembrados, confirme que é você: informe a sua senha ou um código do aplicativo autenticador.',
  stepUpOneProof: 'Informe a sua senha ou um código do aplicativo autenticador (um dos dois).',
  stepUpWrongPassword: 'Senha incorreta.',
  stepUpNoApp: 'Sua conta não tem aplicativo autenticador: confirme com a sua senha.',
} as const;

/** A TOTP code: six digits; spaces a person types between groups are dropped. */
export const totpCodeField = z.pipe(
  z.pipe(
    z.string({ error: SECOND_FACTOR_MESSAGES.codeFormat }),
    z.transform((value) => value.replace(/\s+/g, '')),
  ),
  z.string().check(z.regex(/^\d{6}$/, SECOND_FACTOR_MESSAGES.codeFormat)),
);

const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A recovery code as stored and compared: lower case, without dashes or spaces. */
export const normalizeRecoveryCode = (value: string): string => value.toLowerCase().replace(/[\s-]+/g, '');

/** A recovery code as shown: three groups of four. */
const inFours = (text: string, separator: string) => text.match(/.{1,4}/g)?.join(separator) ?? text;

export const formatRecoveryCode = (code: string): string => inFours(code, '-');

/** An authenticator key as a person types it into the app: groups of four. */
export const formatTotpSecret = (secret: string): string => inFours(secret, ' ');

/** 12 characters of a 32-letter alphabet (60 bits, no 0/o or 1/l to misread), from random bytes. */
export function recoveryCodeFrom(bytes: Uint8Array): string {
  return Array.from(bytes.slice(0, 12), (byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]).join('');
}

export const recoveryCodeField = z.pipe(
  z.pipe(z.string({ error: SECOND_FACTOR_MESSAGES.recoveryFormat }), z.transform(normalizeRecoveryCode)),
  // The alphabet's own letters: no l or o, no 0 or 1.
  z.string().check(z.regex(/^[a-km-np-z2-9]{12}$/, SECOND_FACTOR_MESSAGES.recoveryFormat)),
);

/** The proof a change to the second factor asks for (STEP_UP_MINUTES): the password, or a code of the app — one of them. */
export const stepUpSchema = z
  .object({
    senha: z.optional(z.string({ error: SECOND_FACTOR_MESSAGES.stepUpOneProof }).check(z.maxLength(128))),
    codigo: z.optional(totpCodeField),
  })
  .check(
    z.refine((value) => (value.senha ? 1 : 0) + (value.codigo ? 1 : 0) === 1, {
      message: SECOND_FACTOR_MESSAGES.stepUpOneProof,
      path: ['senha'],
    }),
  );
export type StepUpProof = { senha: string } | { codigo: string };

/** The form of the step: a code from the app, or a recovery code; and whether to remember the browser. */
export const totpStepSchema = z.object({ codigo: totpCodeField, lembrar: z.optional(z.boolean()) });
export const recoveryStepSchema = z.object({ codigo: recoveryCodeField, lembrar: z.optional(z.boolean()) });
