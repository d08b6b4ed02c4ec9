import { STATUS_TEXT } from '../../../lib/status-page';

/** SPEC §2 "Not-found": the micro-application shell's own page, with the error image and the way to '/'. */
export function AppNotFound() {
  const text = STATUS_TEXT[404];
  return (
    <section className="status-page" data-testid="app-not-found">
      <svg className="status-image" width="120" height="120" viewBox="0 0 120 120" role="img" aria-label="Erro 404">
        <circle cx="60" cy="60" r="54" />
        <text x="60" y="74" textAnchor="middle" fontSize="40" fontWeight="700">
          404
        </text>
      </svg>
      <h1>{text.heading}</h1>
      <p>{text.detail}</p>
      <a className="button button-primary" href="/">
        Página inicial
      </a>
    </section>
  );
}
