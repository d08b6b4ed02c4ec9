/** A form's failure that belongs to no field, read out as it appears; nothing when there is none. */
export function FormAlert({ message }: { message?: string }) {
  return message ? (
    <div className="alert alert-error" role="alert">
      {message}
    </div>
  ) : null;
}
