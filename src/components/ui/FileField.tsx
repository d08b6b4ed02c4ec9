import { forwardRef, useId } from 'react';
import { describedBy, FieldFrame } from './Field';

interface FileFieldProps {
  label: string;
  hint: string;
  /** The types the picker offers (the server checks the content anyway). */
  accept: string;
  error?: string;
  onChange: () => void;
}

/** A file input in the kit's field frame: its label, hint and error read with it by a screen reader. */
export const FileField = forwardRef<HTMLInputElement, FileFieldProps>(function FileField({ label, hint, accept, error, onChange }, ref) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <div className="field-control">
        <input
          ref={ref}
          id={id}
          type="file"
          className="field-input"
          accept={accept}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
          onChange={onChange}
        />
      </div>
    </FieldFrame>
  );
});

/** An upload's progress in percent, labelled for a screen reader; nothing before it starts. */
export function UploadProgress({ percent }: { percent: number | undefined }) {
  const id = useId();
  if (percent === undefined) return null;
  return (
    <div className="upload-progress">
      <label htmlFor={id}>Progresso do envio</label>
      <progress id={id} max={100} value={percent} aria-valuetext={`${percent}%`}>
        {percent}%
      </progress>
      <span aria-hidden="true">{percent}%</span>
    </div>
  );
}
