import { z } from '../../../lib/zod';
import { endpoint } from '../router';
import { EMBEDDED_APPS } from '../../../lib/embedded-apps';
import { countAttempt, RATE_RULES } from '../../services/identity/rate-limit';
import { logError } from '../../log';

const APP_NAMES = EMBEDDED_APPS.map((a) => a.name) as [string, ...string[]];
/** single-spa's lifecycle statuses (SPEC §4): the only words a report's status may hold. */
const APP_STATUSES = [
  'NOT_LOADED',
  'LOADING_SOURCE_CODE',
  'NOT_BOOTSTRAPPED',
  'BOOTSTRAPPING',
  'NOT_MOUNTED',
  'MOUNTING',
  'MOUNTED',
  'UPDATING',
  'UNMOUNTING',
  'UNLOADING',
  'LOAD_ERROR',
  'SKIP_BECAUSE_BROKEN',
] as const;

/** What the host island reports when single-spa marks an app broken (SPEC §4, §8). Short by design. */
const appErrorBody = z.object({
  app: z.enum(APP_NAMES, { error: 'Aplicação desconhecida.' }),
  status: z.enum(APP_STATUSES, { error: 'Situação inválida.' }).optional(),
  mensagem: z.string({ error: 'Mensagem obrigatória.' }).trim().min(1, 'Mensagem obrigatória.').max(500, 'No máximo 500 caracteres.'),
});

export const embeddedAppEndpoints = [
  // The browser's error reaches the server's log with the app's name; nothing comes back but a receipt.
  endpoint({
    method: 'POST',
    path: '/v1/aplicacoes/erros',
    auth: ['v1'],
    body: appErrorBody,
    async handle(ctx) {
      await countAttempt(ctx.db, [[RATE_RULES.appErrorsPerUser, String(ctx.auth.user.id)]]);
      // One JSON line whose message is one field, unseen characters named (server/log.ts): a report
      // can neither hide what it says (U+202E, U+200B) nor pass for another line.
      logError('aplicacao-embarcada', {
        app: ctx.body.app,
        status: ctx.body.status,
        usuario: ctx.auth.user.id,
        mensagem: ctx.body.mensagem,
      });
      return { registrado: true };
    },
  }),
];
