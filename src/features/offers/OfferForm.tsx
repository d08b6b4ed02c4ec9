import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Field } from '../../components/ui/Field';
import { MaskedInput } from '../../components/ui/MaskedInput';
import { Button } from '../../components/ui/Button';
import { offerUpdateSchema, type OfferFormInput, type OfferUpdate } from '../../lib/offer-schema';
import { createClient, toFailure, type ApiBases } from '../../lib/http';

export interface OfferFormCompany {
  id: number;
  nome: string;
  tipo: string;
}

export interface OfferFormProps {
  apis: ApiBases;
  idSimulador: number;
  /** Present when editing. */
  nrOferta?: number;
  companies: OfferFormCompany[];
  initial: { nome: string; empresas: number[]; vigenciaInicio: string; vigenciaFim: string; comissao: string; ativo: boolean };
}

const FIELDS = ['nome', 'empresas', 'vigenciaInicio', 'vigenciaFim', 'comissao', 'ativo'] as const;
const COMPANY_TYPES: Record<string, string> = { PARCEIRO: 'parceiro', SUBSTABELECIDO: 'substabelecido' };

/**
 * The admin's offer form (/v2/ofertas/cadastro/{idSimulador}): the same schema as the endpoints,
 * so the browser refuses what the server would; the server's field errors land beside the fields.
 * On save it goes back to /v2/ofertas, which shows the saved offer and a toast.
 */
export default function OfferForm({ apis, idSimulador, nrOferta, companies, initial }: OfferFormProps) {
  const [failure, setFailure] = useState<string>();
  const {
    register,
    control,
    handleSubmit,
    getValues,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<OfferFormInput, unknown, OfferUpdate>({
    resolver: zodResolver(offerUpdateSchema),
    defaultValues: initial,
    mode: 'onSubmit',
  });

  const onSubmit = handleSubmit(async () => {
    setFailure(undefined);
    // The raw input goes: the server parses it with the same schema (the commission as typed).
    const body = { ...getValues(), idSimulador };
    try {
      const client = createClient(apis, 'bff');
      const saved = nrOferta
        ? (await client<{ dado: { oferta: { nrOferta: number } } }>(`/v1/ofertas/${nrOferta}`, { method: 'PUT', body })).dado.oferta
            .nrOferta
        : (await client<{ dado: { nrOferta: number }[] }>('/v1/ofertas', { method: 'POST', body })).dado[0]!.nrOferta;
      window.location.assign(`/v2/ofertas?idSimulador=${idSimulador}&salvo=${saved}`);
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
    <form method="post" onSubmit={onSubmit} noValidate aria-label={nrOferta ? 'Editar oferta' : 'Nova oferta'} className="offer-form">
      {failure ? (
        <div className="alert alert-error" role="alert">
          {failure}
        </div>
      ) : null}
      <Field label="Nome da oferta" maxLength={120} error={errors.nome?.message} {...register('nome')} />

      <Controller
        control={control}
        name="empresas"
        render={({ field }) => (
          <fieldset
            className="companies"
            aria-describedby={errors.empresas ? 'empresas-erro' : undefined}
            aria-invalid={errors.empresas ? true : undefined}
          >
            <legend className="field-label">Empresas</legend>
            {companies.map((company) => (
              <label key={company.id} className="checkbox">
                <input
                  type="checkbox"
                  name={field.name}
                  value={company.id}
                  checked={field.value.includes(company.id)}
                  onBlur={field.onBlur}
                  onChange={(event) =>
                    field.onChange(event.target.checked ? [...field.value, company.id] : field.value.filter((id) => id !== company.id))
                  }
                />
                {company.nome} <span className="muted">({COMPANY_TYPES[company.tipo] ?? company.tipo})</span>
              </label>
            ))}
            {errors.empresas ? (
              <p className="field-error" id="empresas-erro" role="alert">
                {errors.empresas.message}
              </p>
            ) : null}
          </fieldset>
        )}
      />

      <div className="dates">
        <Field label="Início da vigência" type="date" error={errors.vigenciaInicio?.message} {...register('vigenciaInicio')} />
        <Field
          label="Fim da vigência"
          type="date"
          hint="Deixe em branco para uma vigência sem prazo final."
          error={errors.vigenciaFim?.message}
          {...register('vigenciaFim')}
        />
      </div>

      <Controller
        control={control}
        name="comissao"
        render={({ field }) => (
          <MaskedInput
            label="Comissão (%)"
            mask="percentage"
            placeholder="0,00"
            error={errors.comissao?.message}
            name={field.name}
            ref={field.ref}
            value={String(field.value ?? '')}
            onChange={field.onChange}
            onBlur={field.onBlur}
          />
        )}
      />

      <label className="checkbox">
        <input type="checkbox" {...register('ativo')} /> Oferta ativa
      </label>

      <div className="actions">
        <Button type="submit" loading={isSubmitting}>
          Salvar
        </Button>
        <a className="button button-outline" href="/v2/ofertas">
          Cancelar
        </a>
      </div>
    </form>
  );
}
