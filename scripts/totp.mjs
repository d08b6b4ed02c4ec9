#!/usr/bin/env node
// Prints the current authenticator-app code of a demo administrator (decision 068), for whoever
// tries the portal without setting up an app: `npm run totp -- admin@seguradora.demo`.
import { readFileSync } from 'node:fs';
import { generateSync } from 'otplib';

const secrets = JSON.parse(readFileSync(new URL('../src/server/demo/second-factor-secrets.json', import.meta.url), 'utf8'));
const email = (process.argv[2] ?? '').trim().toLowerCase();
if (!secrets[email]) {
  console.error(`Uso: npm run totp -- <e-mail>\nContas da demonstração com segundo fator: ${Object.keys(secrets).join(', ')}`);
  process.exit(1);
}
const period = 30;
const left = period - (Math.floor(Date.now() / 1000) % period);
console.log(`${generateSync({ secret: secrets[email] })}  (${email}; vale por mais ${left} s)`);
