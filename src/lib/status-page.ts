import { generationOfPath, HOME_PATH, PUBLIC_HOME } from './paths';

/**
 * The frame of the not-found (404) and no-permission (403) pages (SPEC §2, docs/decisions/025):
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
} as const;
