import { z } from 'zod';
import { ptBR } from 'zod/locales';

/**
 * zod with Brazilian Portuguese messages for the server: every server schema imports `z` from here,
 * so a message we did not write ourselves still reaches the user in pt-BR. The setting is global to
 * zod, so it covers the zod/mini schemas shared with the browser (lib/auth-schemas.ts) too; the
 * browser never loads the locale, because its forms carry their own messages.
 */
z.config(ptBR());

export { z };
