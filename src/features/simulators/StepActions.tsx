import { Button, buttonClass } from '../../components/ui/Button';

interface Props {
  backHref?: string;
  /** Read-only steps link forward instead of saving. */
  nextHref?: string;
  submitLabel?: string;
  submitting?: boolean;
  readOnly?: boolean;
}

/** 'Voltar' and 'Continuar' at the foot of every step. Going back keeps what was saved. */
export function StepActions({ backHref, nextHref, submitLabel = 'Continuar', submitting, readOnly }: Props) {
  return (
    <div className="step-actions">
      {backHref ? (
        <a className={buttonClass('outline')} href={backHref}>
          Voltar
        </a>
      ) : (
        <span />
      )}
      {readOnly ? (
        nextHref ? (
          <a className={buttonClass('primary')} href={nextHref}>
            Avançar
          </a>
        ) : null
      ) : (
        <Button type="submit" loading={submitting}>
          {submitLabel}
        </Button>
      )}
    </div>
  );
}
