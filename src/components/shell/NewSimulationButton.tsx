import { useState } from 'react';
import { ConfirmDialog } from '../ui/Dialog';

/**
 * 'Nova Simulação' with the SPEC §2 confirmation: on 'sim' the current simulation is abandoned and
 * the simulator starts again; on 'não' (or Esc) nothing changes.
 */
export function NewSimulationButton({ startHref }: { startHref: string }) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" className="button button-primary button-small" onClick={() => setAsking(true)}>
        Nova Simulação
      </button>
      <ConfirmDialog
        open={asking}
        title="Atenção"
        text="Esta ação irá interromper a simulação atual. Deseja iniciar uma nova cotação?"
        confirmLabel="sim"
        cancelLabel="não"
        onConfirm={() => window.location.assign(startHref)}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}
