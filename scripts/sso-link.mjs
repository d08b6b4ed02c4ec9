// `npm run sso-link -- <email>`: prints a one-time single sign-on link for a v2 user.
// The link is issued by the portal itself: through the running server when there is one (the
// embedded database admits one process), or by a short-lived server started here for the purpose.
import { existsSync, readFileSync } from 'node:fs';
import { entryPath, serverInfoPath, startPortal } from './serve.mjs';

const email = process.argv[2];
if (!email) {
  console.error('Uso: npm run sso-link -- <email-do-usuario>');
  process.exit(2);
}

function runningServer() {
  if (!existsSync(serverInfoPath())) return undefined;
  const info = JSON.parse(readFileSync(serverInfoPath(), 'utf8'));
  try {
    process.kill(info.pid, 0);
    return info;
  } catch {
    return undefined; // a stale file left by a server that was killed
  }
}

let target = runningServer();
let temporary;
if (!target) {
  if (!existsSync(entryPath)) {
    console.error('O portal ainda não foi construído: rode `npm start` (ou `npm run build`) uma vez.');
    process.exit(1);
  }
  temporary = await startPortal({ port: 0, host: '127.0.0.1', announce: false });
  target = { url: temporary.url, opsKey: temporary.opsKey };
}

const response = await fetch(`${target.url}/api/auth/v2/sessao-sso`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-portal-ops-key': target.opsKey },
  body: JSON.stringify({ email }),
});
const answer = await response.json();
await temporary?.stop();
if (!response.ok) {
  console.error(`Não foi possível emitir o link: ${answer.message}`);
  process.exit(1);
}
console.log(`Link de acesso (uso único, válido até ${new Date(answer.dado.expiraEm).toLocaleTimeString('pt-BR')}):`);
console.log(answer.dado.link);
process.exit(0);
