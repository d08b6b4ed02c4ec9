/**
 * Recovery codes shown once (decision 068): the list the enrolment step, the profile's security page
 * and both passkey islands render the same way (styled by ui.css's .recovery-codes).
 */
export function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  return (
    <ul className="recovery-codes" aria-label="Códigos de recuperação">
      {codes.map((code) => (
        <li key={code}>
          <code>{code}</code>
        </li>
      ))}
    </ul>
  );
}
