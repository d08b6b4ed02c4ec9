/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The signed-in users of each generation, resolved from the session cookies by the middleware. */
    session: import('./lib/session').PortalSession;
    /** A token cookie came in but no longer resolves (expired or revoked): the login says so. */
    sessionExpired: boolean;
  }
}
