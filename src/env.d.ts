/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Who the client is — address, https, allowed origins — behind any trusted proxy (server/proxy.ts). */
    client: import('./server/proxy').ClientInfo;
    /** The signed-in users of each generation, resolved from the session cookies by the middleware. */
    session: import('./lib/session').PortalSession;
    /** A token cookie came in but no longer resolves (expired or revoked): the login says so. */
    sessionExpired: boolean;
    /** Why someone else ended the session whose cookie came in (issue 42): the login says it. */
    sessionEnded?: import('./lib/session').SessionEndReason;
    /** Why something asked for is gone, set before a rewrite to /410 (a boleto paid, cancelled or expired). */
    gone?: import('./lib/payments').BoletoGone;
  }
}
