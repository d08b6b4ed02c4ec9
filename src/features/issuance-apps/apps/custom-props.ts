import type { EmbeddedAppName } from '../../../lib/embedded-apps';
import type { ApiBases } from '../../../lib/http';

/** Who is selling (SPEC §2: the apps differ by session type): the legacy session's user. */
export interface EmbeddedSession {
  tipo: 'v1';
  nome: string;
  idUsuario: number;
  /** The embedded products (EMP, IP, VE) the user may start an issuance of: the consultation offers only these. */
  produtos: string[];
}

/** What the host gives every app through single-spa's customProps. */
export interface EmbeddedProps {
  app: EmbeddedAppName;
  apis: ApiBases;
  sessao: EmbeddedSession;
  /** Sends an error of the app's own rendering to the server's log, as the host does for lifecycle errors. */
  reportError: (message: string) => void;
  /** The offer the simulator start answered (SPEC §3), where the host started one. */
  nrOferta?: number;
  domElement: HTMLElement;
}
