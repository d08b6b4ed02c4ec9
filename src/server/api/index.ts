import { createRouter } from './router';
import { plataforma } from './endpoints/plataforma';
import { bff } from './endpoints/bff';
import { gateway } from './endpoints/gateway';
import { auth } from './endpoints/auth';
import { quoteEndpoints } from './endpoints/quotes';
import { historyEndpoints } from './endpoints/history';

/** Every API endpoint of the portal, by base (DESIGN §5). */
export const api = createRouter('/api', { plataforma, bff: [...bff, ...quoteEndpoints, ...historyEndpoints], gateway, auth });
