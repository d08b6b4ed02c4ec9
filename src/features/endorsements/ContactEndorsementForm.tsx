import { useState } from 'react';
import { Controller, useForm, type FieldPath } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type * as z from 'zod/mini';
import { Field } from '../../components/ui/Field';
import { MaskedInput } from '../../components/ui/MaskedInput';
import { SelectField } from '../../components/ui/Choice';
import { Button } from '../../components/ui/Button';
import { contactSchema, type InsuredContact } from '../../lib/endorsements';
import { CONTACT_MESSAGES, sameContact } from '../../lib/endorsement-contact';
import { INSURED_MAX_LENGTH, UFS } from '../../lib/products/insured';
import { apiBaseOf, type ApiBases } from '../../lib/http';
import { post } from '../../lib/post';
import { FormAlert } from '../../components/ui/FormAlert';

type Values = z.input<typeof contactSchema>;

interface Props {
  apis: ApiBases;
  generation: 'v1' | 'v2';
  idContratacao: number;
  /** The insured's contact as it is now: the form starts from it, and sending it unchanged is refused. */
  current: InsuredContact;
  homeHref: string;
}

interface Issued {
  nrEndosso: string;
  pdf: string;
}

const FIELDS: FieldPath<Values>[] = [
  'email',
  'telefone',
  'endereco.cep',
  'endereco.logradouro',
  'endereco.numero',
  'endereco.complemento',
  'endereco.bairro',
  'endereco.cidade',
  'endereco.uf',
];

/** The stored contact as the form's texts: the CEP with its hyphen, as the cadastro step types it. */
const textsOf = (contact: InsuredContact): Values => ({
  email: contact.email,
  telefone: contact.telefone,
  endereco: {
    ...contact.endereco,
    cep: contact.endereco.cep.replace(/^(\d{5})(\d{3})$/, '$1-$2'),
    complemento: contact.endereco.complemento ?? '',
  },
});

/**
 * The contact endorsement's form: the same schema (lib/endorsements.ts contactSchema) checks it here
 * and on the server, the phone and CEP typed as in the cadastro step. Unchanged data is not sent:
 * an endorsement that changes nothing would still be numbered and printed.
 */
export default function ContactEndorsementForm({ apis, generation, idContratacao, current, homeHref }: Props) {
  const [failure, setFailure] = useState<string>();
  const [issued, setIssued] = useState<Issued>();
  const {
    register,
    control,
    handleSubmit,
    getValues,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, InsuredContact>({
    resolver: zodResolver(contactSchema),
    defaultValues: textsOf(current),
    mode: 'onSubmit',
  });

  const onSubmit = handleSubmit(async (contact) => {
    setFailure(undefined);
    if (sameContact(current, contact)) return setFailure(CONTACT_MESSAGES.unchanged);
    const result = await post<{ endosso: Issued }>(
      apis,
      apiBaseOf(generation),
      `/v1/apolices/${idContratacao}/endossos/contato`,
      getValues(),
    );
    if (result.ok) return setIssued(result.data.endosso);
    const placed = FIELDS.filter((field) => result.errors[field]?.[0]);
    for (const field of placed) setError(field, { message: result.errors[field]![0]! });
    if (placed.length === 0) setFailure(result.message);
  });

  if (issued)
    return (
      <div className="alert alert-success" role="status" data-testid="endosso-emitido">
        <p>
          Endosso nº <strong data-testid="nr-endosso">{issued.nrEndosso}</strong> emitido: os novos dados do segurado valem a partir de
          hoje.
        </p>
        <p>
          <a href={issued.pdf}>Baixar o endosso (PDF)</a> · <a href={homeHref}>Voltar aos endossos da apólice</a>
        </p>
      </div>
    );

  const address = errors.endereco;
  return (
    <form method="post" onSubmit={onSubmit} noValidate aria-label="Alterar dados cadastrais" className="contact-form">
      <FormAlert message={failure} />
      <section className="contact-section">
        <h2>Contato</h2>
        <div className="contact-grid">
          <Field
            label="E-mail"
            type="email"
            autoComplete="email"
            maxLength={INSURED_MAX_LENGTH.email}
            error={errors.email?.message}
            {...register('email')}
          />
          <Controller
            control={control}
            name="telefone"
            render={({ field }) => <MaskedInput label="Telefone" mask="phone" error={errors.telefone?.message} {...field} />}
          />
        </div>
      </section>
      <section className="contact-section">
        <h2>Endereço</h2>
        <div className="contact-grid">
          <Field
            label="CEP"
            inputMode="numeric"
            maxLength={9}
            autoComplete="postal-code"
            error={address?.cep?.message}
            {...register('endereco.cep')}
          />
          <Field
            label="Logradouro"
            autoComplete="address-line1"
            maxLength={INSURED_MAX_LENGTH.logradouro}
            error={address?.logradouro?.message}
            {...register('endereco.logradouro')}
          />
          <Field label="Número" maxLength={INSURED_MAX_LENGTH.numero} error={address?.numero?.message} {...register('endereco.numero')} />
          <Field
            label="Complemento (opcional)"
            maxLength={INSURED_MAX_LENGTH.complemento}
            error={address?.complemento?.message}
            {...register('endereco.complemento')}
          />
          <Field label="Bairro" maxLength={INSURED_MAX_LENGTH.bairro} error={address?.bairro?.message} {...register('endereco.bairro')} />
          <Field
            label="Cidade"
            autoComplete="address-level2"
            maxLength={INSURED_MAX_LENGTH.cidade}
            error={address?.cidade?.message}
            {...register('endereco.cidade')}
          />
          <SelectField label="UF" placeholder="Selecione" options={UFS} error={address?.uf?.message} {...register('endereco.uf')} />
        </div>
      </section>
      <div className="contact-actions">
        <a className="button button-outline" href={homeHref}>
          Voltar
        </a>
        <Button type="submit" loading={isSubmitting}>
          Emitir endosso
        </Button>
      </div>
    </form>
  );
}
