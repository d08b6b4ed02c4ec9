/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The signed-in users of each generation, resolved from the session cookies by the middleware. */
    session: import('./lib/session').PortalSession;
  }
}
