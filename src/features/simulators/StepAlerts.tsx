const RESTORED_NOTE = 'Recuperamos os dados que você havia preenchido. Confira e salve para continuar.';

/** What sits above every step form: the note of a restored draft, and the server's refusal. */
export function StepAlerts({ restored, failure }: { restored: boolean; failure?: string }) {
  return (
    <>
      {restored ? (
        <div className="alert alert-info" role="status">
          {RESTORED_NOTE}
        </div>
      ) : null}
      {failure ? (
        <div className="alert alert-error" role="alert">
          {failure}
        </div>
      ) : null}
    </>
  );
}
