// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone', bodySizeLimit: 1024 * 1024 }),
  integrations: [react()],
  // Form posts from other sites are refused by Astro; JSON endpoints check Origin in the API router.
  security: { checkOrigin: true },
  server: { port: 4321, host: '127.0.0.1' },
  vite: {
    ssr: {
      // Native and WASM database drivers stay in node_modules instead of the server bundle.
      external: ['@electric-sql/pglite', 'pg', 'nodemailer'],
    },
  },
});
