import { PASSWORD_RULES } from '../../lib/password-policy';

/** The SPEC §5 guidance as a live checklist under the new-password field. */
export function PasswordChecklist({ password }: { password: string }) {
  return (
    <ul className="checklist" aria-label="Requisitos da senha">
      {PASSWORD_RULES.map((rule) => {
        const ok = rule.test(password);
        return (
          <li key={rule.id} className={ok ? 'ok' : undefined}>
            {rule.label}
            {ok ? <span className="visually-hidden"> (atendido)</span> : null}
          </li>
        );
      })}
    </ul>
  );
}
