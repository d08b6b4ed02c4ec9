// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { cspDigestMemo } from './scripts/csp-digest-memo.mjs';
import { embeddedApps } from './scripts/build-embedded-apps.mjs';

export default defineConfig({
  output: 'server',
  // Stylesheets are always files, never inlined: Astro's CSP header lists a digest for every inline
  // style of the whole build, and with a page's worth of them each the header outgrew the 4 KB a
  // reverse proxy reads by default (nginx answered 502, decision 053). As files they are cached too.
  build: { inlineStylesheets: 'never' },
  // PORTAL_DIST lets two builds of one checkout live side by side (e.g. a second e2e run).
  outDir: process.env.PORTAL_DIST ?? './dist',
  // The largest body any route takes (a 10 MB document upload, src/server/request-body.ts
  // BODY_LIMITS): the outer bound. Every other route is held to its own 1 MB by our count.
  adapter: node({ mode: 'standalone', bodySizeLimit: 10 * 1024 * 1024 }),
  // The embedded issuance apps are built after the portal into dist/client/mf/ (decision 054).
  integrations: [react(), embeddedApps()],
  // Cross-site requests are refused by our middleware (middleware/index.ts) for every method and
  // content type, with a JSON answer on the API; Astro's own check would also refuse same-site API
  // clients that send no Origin header (docs/decisions/011-http-hardening.md).
  security: {
    checkOrigin: false,
    // Astro hashes every script and style it emits into a Content-Security-Policy header of each
    // page: no 'unsafe-inline' anywhere. The e-mail previews are served apart with their own policy.
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ],
    },
  },
  server: { port: 4321, host: '127.0.0.1' },
  vite: {
    // The CSP digests of a page's inline scripts and styles are worked out once, not per request.
    plugins: [cspDigestMemo()],
    ssr: {
      // Native and WASM database drivers stay in node_modules instead of the server bundle; so does
      // pdfkit, which loads its font metrics and colour profile from its own package at run time.
      external: ['@electric-sql/pglite', 'pg', 'nodemailer', 'pdfkit'],
    },
  },
});
