import { createRouter } from './router';
import { plataforma } from './endpoints/plataforma';
import { bff } from './endpoints/bff';
import { gateway } from './endpoints/gateway';
import { auth } from './endpoints/auth';
import { quoteEndpoints } from './endpoints/quotes';
import { historyEndpoints } from './endpoints/history';
import { pagamentos } from './endpoints/pagamentos';
import { policyEndpoints } from './endpoints/policies';
import { endorsementEndpoints } from './endpoints/endorsements';
import { cancellationEndpoints } from './endpoints/cancellation';
import { documentEndpoints } from './endpoints/documents';
import { commissionEndpoints, incomeEndpoints } from './endpoints/commissions';
import { userEndpoints } from './endpoints/users';
import { hierarchyEndpoints } from './endpoints/hierarchy';
import { pointOfSaleEndpoints } from './endpoints/points-of-sale';
import { accessLogEndpoints } from './endpoints/access-log';
import { partnerEndpoints } from './endpoints/partners';
import { embeddedAppEndpoints } from './endpoints/embedded-apps';
import { insuredMessageEndpoints } from './endpoints/insured-messages';
import { worklistLiveEndpoints } from './endpoints/worklist-live';
import { secondFactorEndpoints } from './endpoints/second-factor';
import { securityEndpoints } from './endpoints/security';
import { userPageEndpoints } from './endpoints/user-page';
import { userBulkEndpoints } from './endpoints/user-bulk';
import type { Generation } from '../../lib/quote-flow';

/** The endpoints both generations have, each under its session's base. */
const ofGeneration = (generation: Generation) => [
  ...quoteEndpoints(generation),
  ...historyEndpoints(generation),
  ...policyEndpoints(generation),
  ...endorsementEndpoints(generation),
  ...cancellationEndpoints(generation),
  ...documentEndpoints(generation),
  ...incomeEndpoints(generation),
  ...insuredMessageEndpoints(generation),
  ...worklistLiveEndpoints(generation),
  ...securityEndpoints(generation),
  // Issue 32: a user's page and the pending invitations, legacy users on the platform, v2 users on the BFF.
  ...userPageEndpoints(generation),
];

/** Every API endpoint of the portal, by base (DESIGN §5). */
export const api = createRouter('/api', {
  plataforma: [
    ...plataforma,
    ...userEndpoints,
    ...userBulkEndpoints('v1'),
    ...hierarchyEndpoints,
    ...embeddedAppEndpoints,
    ...ofGeneration('v1'),
  ],
  bff: [
    ...bff,
    ...ofGeneration('v2'),
    ...commissionEndpoints,
    ...pointOfSaleEndpoints,
    ...accessLogEndpoints,
    ...partnerEndpoints,
    ...userBulkEndpoints('v2'),
  ],
  gateway,
  auth: [...auth, ...secondFactorEndpoints],
  pagamentos,
});
