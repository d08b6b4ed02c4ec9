import { useState } from 'react';
import { Button } from '../../components/ui/Button';
import { ConfirmDialog } from '../../components/ui/Dialog';
import { FormAlert } from '../../components/ui/FormAlert';
import { apiBaseOf, type ApiBases } from '../../lib/http';
import { formatIsoDate } from '../../lib/format';
import { post } from '../../lib/post';

interface Props {
  apis: ApiBases;
  generation: 'v1' | 'v2';
  idContratacao: number;
  efetivaEm: string;
  /** Where to go once it is undone. */
  next: string;
}

/** "Desfazer o agendamento": a scheduled cancellation undone before its day, asked once more in a dialog. */
export default function UndoScheduleButton({ apis, generation, idContratacao, efetivaEm, next }: Props) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  async function undo() {
    setAsking(false);
    setBusy(true);
    const result = await post(apis, apiBaseOf(generation), `/v1/apolices/${idContratacao}/cancelamento/agendado`, {}, 'DELETE');
    if (result.ok) return window.location.assign(next);
    setBusy(false);
    setFailure(result.message);
  }

  return (
    <div>
      <FormAlert message={failure} />
      <Button variant="outline" loading={busy} disabled={busy} onClick={() => setAsking(true)}>
        Desfazer o agendamento
      </Button>
      <ConfirmDialog
        open={asking}
        title="Desfazer o cancelamento agendado?"
        text={`O cancelamento agendado para ${formatIsoDate(efetivaEm)} deixa de valer: a apólice segue em vigor, com as mesmas parcelas. O segurado é avisado por e-mail.`}
        confirmLabel="Sim, desfazer"
        cancelLabel="Voltar"
        onConfirm={undo}
        onCancel={() => setAsking(false)}
      />
    </div>
  );
}
