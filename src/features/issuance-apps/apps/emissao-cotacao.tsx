import type { EmbeddedProps } from './custom-props';
import { IssuanceApp } from './IssuanceApp';
import { issuanceLifecycles } from './lifecycles';

/** Entry of the emissao-cotacao bundle (scripts/build-embedded-apps.mjs): single-spa's lifecycles of this app. */
export const { bootstrap, mount, unmount, update } = issuanceLifecycles((props: EmbeddedProps) => (
  <IssuanceApp {...props} app="emissao-cotacao" />
));
