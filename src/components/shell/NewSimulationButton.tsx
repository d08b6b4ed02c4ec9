import { useRef } from 'react';

/**
 * 'Nova Simulação' with the SPEC §2 confirmation: on 'sim' the current simulation is abandoned and
 * the simulator starts again.
 */
export function NewSimulationButton({ startHref }: { startHref: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className="button button-primary button-small" onClick={() => dialog.current?.showModal()}>Nova Simulação</button>
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby="nova-simulacao-titulo" aria-describedby="nova-simulacao-texto">
        <h2 id="nova-simulacao-titulo">Atenção</h2>
        <p id="nova-simulacao-texto">Esta ação irá interromper a simulação atual. Deseja iniciar uma nova cotação?</p>
        <div className="confirm-actions">
          <button type="button" className="button button-outline" onClick={() => dialog.current?.close()}>não</button>
          <button type="button" className="button button-primary" onClick={() => window.location.assign(startHref)}>sim</button>
        </div>
      </dialog>
    </>
  );
}
