export interface StepperStep {
  id: string;
  label: string;
  /** Where a completed step leads (steps are routes, so a finished one can be revisited). */
  href?: string;
}

export interface StepperProps {
  steps: readonly StepperStep[];
  /** The id of the step the user is on. */
  current: string;
  /** The nav's accessible name. */
  label?: string;
}

/**
 * The steps of a flow in order: completed ones link back, the current one is
 * `aria-current="step"`, later ones are plain text. Horizontal with labels from 768 px; below it,
 * numbered dots with the current step's name under them.
 */
export function Stepper({ steps, current, label = 'Etapas' }: StepperProps) {
  const currentIndex = Math.max(
    steps.findIndex((step) => step.id === current),
    0,
  );
  const currentStep = steps[currentIndex];
  return (
    <nav className="stepper" aria-label={label}>
      <ol className="stepper-list">
        {steps.map((step, index) => {
          const state = index < currentIndex ? 'done' : index === currentIndex ? 'current' : 'todo';
          const content = (
            <>
              <span className="stepper-marker" aria-hidden="true">
                {state === 'done' ? '✓' : index + 1}
              </span>
              <span className="stepper-label">
                {step.label}
                {state === 'done' ? <span className="visually-hidden"> (concluída)</span> : null}
              </span>
            </>
          );
          return (
            <li key={step.id} className={`stepper-step stepper-${state}`}>
              {state === 'done' && step.href ? (
                <a className="stepper-item" href={step.href}>
                  {content}
                </a>
              ) : (
                <span className="stepper-item" aria-current={state === 'current' ? 'step' : undefined}>
                  {content}
                </span>
              )}
            </li>
          );
        })}
      </ol>
      {currentStep ? (
        <p className="stepper-compact" aria-hidden="true">
          Etapa {currentIndex + 1} de {steps.length}: <strong>{currentStep.label}</strong>
        </p>
      ) : null}
    </nav>
  );
}
