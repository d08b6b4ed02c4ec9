import { z } from 'zod';
import { ptBR } from 'zod/locales';

/**
 * zod with Brazilian Portuguese messages: every schema imports `z` from here, so a message we did
 * not write ourselves still reaches the user in pt-BR.
 */
z.config(ptBR());

export { z };
