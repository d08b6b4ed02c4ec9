import { createRouter } from './router';
import { plataforma } from './endpoints/plataforma';
import { bff } from './endpoints/bff';
import { gateway } from './endpoints/gateway';
import { auth } from './endpoints/auth';
import { quoteEndpoints } from './endpoints/quotes';
import { historyEndpoints } from './endpoints/history';
import { pagamentos } from './endpoints/pagamentos';
import { policyEndpoints } from './endpoints/policies';
import { cancellationEndpoints } from './endpoints/cancellation';
import { documentEndpoints } from './endpoints/documents';

/** Every API endpoint of the portal, by base (DESIGN §5). */
export const api = createRouter('/api', {
  plataforma: [
    ...plataforma,
    ...quoteEndpoints('v1'),
    ...historyEndpoints('v1'),
    ...policyEndpoints('v1'),
    ...cancellationEndpoints('v1'),
    ...documentEndpoints('v1'),
  ],
  bff: [
    ...bff,
    ...quoteEndpoints('v2'),
    ...historyEndpoints('v2'),
    ...policyEndpoints('v2'),
    ...cancellationEndpoints('v2'),
    ...documentEndpoints('v2'),
  ],
  gateway,
  auth,
  pagamentos,
});
