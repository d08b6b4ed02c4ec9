import { generationOfPath, HOME_PATH, PUBLIC_HOME } from './paths';

/**
 * The frame of the not-found (404), no-permission (403) and gone (410) pages (SPEC §2, docs/decisions/025):
 * whoever is signed in to the generation of the address asked for stays in the portal — drawer,
 * menu and the way back to their home; anyone else gets the public frame, with SPEC's way home
 * ('/v2/login' under /v2, '/' elsewhere). The text is the same in both generations.
 */
export type StatusFrame = { frame: 'portal'; generation: 'v1' | 'v2'; homeHref: string } | { frame: 'public'; homeHref: string };

export function statusFrame(askedPath: string, signedIn: { v1: boolean; v2: boolean }): StatusFrame {
  const generation = generationOfPath(askedPath);
  return signedIn[generation]
    ? { frame: 'portal', generation, homeHref: HOME_PATH[generation] }
    : { frame: 'public', homeHref: PUBLIC_HOME[generation] };
}

/** What each status page says: one text for both generations (decision 009 corrects SPEC's 'está'). */
export const STATUS_TEXT = {
  404: {
    title: 'Página não encontrada',
    heading: 'Desculpe, esta página não está disponível.',
    detail: 'O endereço pode estar errado ou a página pode ter mudado de lugar.',
  },
  403: {
    title: 'Acesso negado',
    heading: 'Você não tem permissão para acessar esta página.',
    detail: 'Se precisar deste acesso, fale com o administrador da sua empresa.',
  },
  // What a route knows was there and is no more (a boleto paid, cancelled or expired) says more itself.
  410: {
    title: 'Indisponível',
    heading: 'Este conteúdo não está mais disponível.',
    detail: 'O que este endereço mostrava já não existe.',
  },
} as const;

/** The insured's policy link (decision 035) that no longer opens: said plainly, with what to do. */
const POLICY_LINK_GONE = {
  title: 'Link da apólice indisponível',
  heading: 'Este link da apólice não está mais disponível.',
  detail:
    'Os links enviados por e-mail valem 30 dias e só abrem exatamente como foram enviados. Peça um novo envio ao parceiro ' +
    'que vendeu o seu seguro ou fale com a central de atendimento da seguradora.',
};

/** The text of a status page for the address asked for. */
export const statusText = (status: 403 | 404 | 410, askedPath: string) =>
  status === 404 && askedPath.startsWith('/apolice-digital/') ? POLICY_LINK_GONE : STATUS_TEXT[status];
