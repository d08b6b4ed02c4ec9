import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Field } from '../../components/ui/Field';
import { Button } from '../../components/ui/Button';
import {
  SIMULATOR_NAME_MAX,
  START_URL_MAX,
  simulatorUpdateSchema,
  type SimulatorFormInput,
  type SimulatorUpdate,
} from '../../lib/simulator-schema';
import { createClient, toFailure, type ApiBases } from '../../lib/http';

export interface SimulatorEditFormProps {
  apis: ApiBases;
  id: number;
  initial: { nome: string; urlInicio: string; ativo: boolean; grupoProduto: string };
}

const FIELDS = ['nome', 'urlInicio', 'ativo', 'grupoProduto'] as const;

/**
 * /editar-simulador/{id}: the legacy admin's simulator form. The same schema as the endpoint, so the
 * browser refuses what the server would; the server's field errors land beside the fields. Saving
 * keeps the admin here with a confirmation: the homes of both generations show the change at once.
 */
export default function SimulatorEditForm({ apis, id, initial }: SimulatorEditFormProps) {
  const [failure, setFailure] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const {
    register,
    handleSubmit,
    getValues,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SimulatorFormInput, unknown, SimulatorUpdate>({
    resolver: zodResolver(simulatorUpdateSchema),
    defaultValues: initial,
    mode: 'onSubmit',
  });

  const onSubmit = handleSubmit(async () => {
    setFailure(undefined);
    setSaved(undefined);
    try {
      const answer = await createClient(apis, 'plataforma')<{ resultado: { nome: string } }>(`/v1/simuladores/${id}`, {
        method: 'PUT',
        body: getValues(),
      });
      setSaved(`Simulador “${answer.resultado.nome}” salvo.`);
    } catch (error) {
      const f = toFailure(error);
      let placed = false;
      for (const field of FIELDS) {
        const message = f.fieldErrors[field]?.[0];
        if (message) {
          setError(field, { message });
          placed = true;
        }
      }
      if (!placed) setFailure(f.message);
    }
  });

  return (
    <form method="post" onSubmit={onSubmit} noValidate aria-label="Editar simulador">
      {saved ? (
        <div className="alert alert-success" role="status">
          {saved}
        </div>
      ) : null}
      {failure ? (
        <div className="alert alert-error" role="alert">
          {failure}
        </div>
      ) : null}
      <Field label="Nome" maxLength={SIMULATOR_NAME_MAX} error={errors.nome?.message} {...register('nome')} />
      <Field
        label="URL de início"
        maxLength={START_URL_MAX}
        formatPastedDocuments={false}
        hint="Um caminho do portal (ex.: /simulador-residencial/cadastro) ou um endereço https://."
        error={errors.urlInicio?.message}
        {...register('urlInicio')}
      />
      <Field
        label="Grupo de produto"
        inputMode="numeric"
        maxLength={4}
        formatPastedDocuments={false}
        hint="4 dígitos (ex.: 0118). Deixe em branco se o simulador não tiver grupo."
        error={errors.grupoProduto?.message}
        {...register('grupoProduto')}
      />
      <label className="checkbox">
        <input type="checkbox" {...register('ativo')} /> Simulador ativo
      </label>
      {errors.ativo ? (
        <p className="field-error" role="alert">
          {errors.ativo.message}
        </p>
      ) : null}
      <div className="actions">
        <Button type="submit" loading={isSubmitting}>
          Salvar
        </Button>
        <a className="button button-outline" href="/home">
          Voltar ao início
        </a>
      </div>
    </form>
  );
}
