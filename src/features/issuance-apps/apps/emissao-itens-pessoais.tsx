import { IssuanceApp } from './IssuanceApp';
import { issuanceLifecycles } from './lifecycles';

/** Entry of the emissao-itens-pessoais bundle (scripts/build-embedded-apps.mjs): single-spa's lifecycles. */
export const { bootstrap, mount, unmount, update } = issuanceLifecycles(IssuanceApp);
