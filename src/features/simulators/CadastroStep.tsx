import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import * as z from 'zod/mini';
import { Field } from '../../components/ui/Field';
import { MaskedInput } from '../../components/ui/MaskedInput';
import { RadioGroup, SelectField } from '../../components/ui/Choice';
import type { ApiBases } from '../../lib/http';
import { productFor } from '../../lib/products/catalog';
import { INSURED_MAX_LENGTH, insuredSchema, UFS } from '../../lib/products/insured';
import { answersSchema } from '../../lib/products/questions';
import type { Answers } from '../../lib/products/types';
import { nextStep, stepPath, type Generation } from '../../lib/quote-flow';
import type { ProductLine } from '../../lib/simulators';
import { formatCnpj, formatCpf } from '../../lib/validators';
import { answersFromTexts, issuesToErrors, textsFromAnswers, type FieldErrors } from './form';
import { useStepForm } from './useStepForm';
import { StepAlerts } from './StepAlerts';
import { QuestionInput } from './QuestionInput';
import { StepActions } from './StepActions';
import { quoteApi, replaceAddress } from './quote-api';

interface Props {
  apis: ApiBases;
  generation: Generation;
  code: string;
  line: ProductLine;
  nrOferta: number;
  /** A saved quote being edited or viewed; absent on a new simulation. */
  quote?: { nrCotacao: string; segurado: Record<string, unknown>; respostas: Answers };
  readOnly: boolean;
}

type Texts = Record<string, string>;

const PERSON_FIELDS = ['nome', 'cpf', 'dataNascimento'] as const;
const COMPANY_FIELDS = ['razaoSocial', 'cnpj'] as const;
const CONTACT_FIELDS = ['email', 'telefone'] as const;
const ADDRESS_FIELDS = ['cep', 'logradouro', 'numero', 'complemento', 'bairro', 'cidade', 'uf'] as const;

/** The saved insured as the form's texts (documents shown with their masks). */
function insuredTexts(segurado: Record<string, unknown> | undefined, defaultType: 'PF' | 'PJ'): Texts {
  const s = segurado ?? {};
  const address = (s.endereco ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    tipoPessoa: text(s.tipoPessoa) || defaultType,
    ...Object.fromEntries([...PERSON_FIELDS, ...COMPANY_FIELDS, ...CONTACT_FIELDS].map((f) => [f, text(s[f])])),
    cpf: s.cpf ? formatCpf(text(s.cpf)) : '',
    cnpj: s.cnpj ? formatCnpj(text(s.cnpj)) : '',
    ...Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, text(address[f])])),
  };
}

function insuredFromTexts(texts: Texts) {
  const identity =
    texts.tipoPessoa === 'PJ'
      ? { razaoSocial: texts.razaoSocial, cnpj: texts.cnpj }
      : { nome: texts.nome, cpf: texts.cpf, dataNascimento: texts.dataNascimento };
  const address = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, texts[f] ?? '']));
  if (!address.complemento) delete address.complemento;
  return { tipoPessoa: texts.tipoPessoa, ...identity, email: texts.email, telefone: texts.telefone, endereco: address };
}

/**
 * Once the start form has created its quote, the browser's history must not lead back to a blank
 * start form (filling it again would create a second quote): the entry becomes the new quote's own
 * cadastro address, and a copy of the page the back/forward cache brings back is replaced by it.
 */
function useCreatedQuoteAddress() {
  const address = useRef<string>(undefined);
  useEffect(() => {
    const reopened = (event: PageTransitionEvent) => {
      if (event.persisted && address.current) window.location.replace(address.current);
    };
    window.addEventListener('pageshow', reopened);
    return () => window.removeEventListener('pageshow', reopened);
  }, []);
  return (path: string) => {
    address.current = path;
    replaceAddress(path);
  };
}

/**
 * Cadastro (SPEC §4): the insured person or company, contact and address, and the line's own
 * rating questions. Saving the first time creates the quote and its number.
 */
export default function CadastroStep({ apis, generation, code, line, nrOferta, quote, readOnly }: Props) {
  const product = productFor(code)!;
  const defaultType = product.insured === 'PJ' ? 'PJ' : 'PF';
  const [texts, setTexts] = useState<Texts>(() => insuredTexts(quote?.segurado, defaultType));
  const [answers, setAnswers] = useState<Texts>(() => textsFromAnswers(product.cadastroQuestions, quote?.respostas));
  const {
    form,
    errors,
    failure,
    submitting,
    submit: save,
    restored,
  } = useStepForm<{ texts: Texts; answers: Texts }>({
    values: () => ({ texts, answers }),
    restore: (draft) => {
      setTexts((t) => ({ ...t, ...draft.texts }));
      setAnswers((a) => ({ ...a, ...draft.answers }));
    },
    enabled: !readOnly,
  });
  const created = useCreatedQuoteAddress();
  const flow = { hasRisk: product.riskQuestions.length > 0, finalStep: product.finalStep };
  const person = texts.tipoPessoa !== 'PJ';

  const set = (name: string) => (value: string) => setTexts((t) => ({ ...t, [name]: value }));
  // The schema's own limits (one source of truth): the input cannot take more than the server accepts.
  const field = (name: string, key = `segurado.${name}`) => {
    const maxLength = INSURED_MAX_LENGTH[name as keyof typeof INSURED_MAX_LENGTH];
    return { value: texts[name] ?? '', error: errors[key], ...(maxLength ? { maxLength } : {}) };
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const segurado = insuredFromTexts(texts);
    const respostas = answersFromTexts(product.cadastroQuestions, answers);
    const found: FieldErrors = {};
    const insured = z.safeParse(insuredSchema(product.insured, { age: product.insuredAge }), segurado);
    if (!insured.success) Object.assign(found, issuesToErrors(insured.error, 'segurado'));
    const own = z.safeParse(answersSchema(product.cadastroQuestions), respostas);
    if (!own.success) Object.assign(found, issuesToErrors(own.error, 'respostas'));
    const api = quoteApi(apis, generation);
    void save(
      found,
      () => (quote ? api.save(quote.nrCotacao, 'cadastro', { segurado, respostas }) : api.create({ nrOferta, segurado, respostas })),
      ({ cotacao }) => {
        if (!quote) created(stepPath(generation, line, 'cadastro', cotacao.nrCotacao));
        return stepPath(generation, line, nextStep(flow, 'cadastro')!, cotacao.nrCotacao);
      },
    );
  }

  const wrap = (key: string, node: ReactNode) => <div data-field={key}>{node}</div>;

  return (
    <form ref={form} onSubmit={submit} noValidate className="step-form" aria-label="Cadastro do segurado">
      <StepAlerts restored={restored} failure={failure} />
      <fieldset disabled={readOnly} className="step-fieldset">
        <section className="step-section">
          <h2>Segurado</h2>
          {product.insured === 'PF_PJ'
            ? wrap(
                'segurado.tipoPessoa',
                <RadioGroup
                  label="Tipo de pessoa"
                  name="tipoPessoa"
                  value={texts.tipoPessoa ?? 'PF'}
                  onChange={set('tipoPessoa')}
                  error={errors['segurado.tipoPessoa']}
                  options={[
                    { value: 'PF', label: 'Pessoa física' },
                    { value: 'PJ', label: 'Pessoa jurídica' },
                  ]}
                />,
              )
            : null}
          <div className="step-grid">
            {person ? (
              <>
                {wrap(
                  'segurado.nome',
                  <Field label="Nome completo" autoComplete="name" {...field('nome')} onChange={(e) => set('nome')(e.target.value)} />,
                )}
                {wrap('segurado.cpf', <MaskedInput label="CPF" mask="cpf" {...field('cpf')} onChange={set('cpf')} />)}
                {wrap(
                  'segurado.dataNascimento',
                  <Field
                    label="Data de nascimento"
                    type="date"
                    {...field('dataNascimento')}
                    onChange={(e) => set('dataNascimento')(e.target.value)}
                  />,
                )}
              </>
            ) : (
              <>
                {wrap(
                  'segurado.razaoSocial',
                  <Field
                    label="Razão social"
                    autoComplete="organization"
                    {...field('razaoSocial')}
                    onChange={(e) => set('razaoSocial')(e.target.value)}
                  />,
                )}
                {wrap('segurado.cnpj', <MaskedInput label="CNPJ" mask="cnpj" {...field('cnpj')} onChange={set('cnpj')} />)}
              </>
            )}
            {wrap(
              'segurado.email',
              <Field label="E-mail" type="email" autoComplete="email" {...field('email')} onChange={(e) => set('email')(e.target.value)} />,
            )}
            {wrap('segurado.telefone', <MaskedInput label="Telefone" mask="phone" {...field('telefone')} onChange={set('telefone')} />)}
          </div>
        </section>

        <section className="step-section">
          <h2>Endereço</h2>
          <div className="step-grid">
            {wrap(
              'segurado.endereco.cep',
              <Field
                label="CEP"
                inputMode="numeric"
                maxLength={9}
                autoComplete="postal-code"
                {...field('cep', 'segurado.endereco.cep')}
                onChange={(e) => set('cep')(e.target.value.replace(/[^\d-]/g, ''))}
              />,
            )}
            {wrap(
              'segurado.endereco.logradouro',
              <Field
                label="Logradouro"
                autoComplete="address-line1"
                {...field('logradouro', 'segurado.endereco.logradouro')}
                onChange={(e) => set('logradouro')(e.target.value)}
              />,
            )}
            {wrap(
              'segurado.endereco.numero',
              <Field label="Número" {...field('numero', 'segurado.endereco.numero')} onChange={(e) => set('numero')(e.target.value)} />,
            )}
            {wrap(
              'segurado.endereco.complemento',
              <Field
                label="Complemento (opcional)"
                {...field('complemento', 'segurado.endereco.complemento')}
                onChange={(e) => set('complemento')(e.target.value)}
              />,
            )}
            {wrap(
              'segurado.endereco.bairro',
              <Field label="Bairro" {...field('bairro', 'segurado.endereco.bairro')} onChange={(e) => set('bairro')(e.target.value)} />,
            )}
            {wrap(
              'segurado.endereco.cidade',
              <Field
                label="Cidade"
                autoComplete="address-level2"
                {...field('cidade', 'segurado.endereco.cidade')}
                onChange={(e) => set('cidade')(e.target.value)}
              />,
            )}
            {wrap(
              'segurado.endereco.uf',
              <SelectField
                label="UF"
                placeholder="Selecione"
                options={UFS}
                value={texts.uf ?? ''}
                error={errors['segurado.endereco.uf']}
                onChange={(e) => set('uf')(e.target.value)}
              />,
            )}
          </div>
        </section>

        {product.cadastroQuestions.length > 0 ? (
          <section className="step-section">
            <h2>Sobre o seguro</h2>
            <div className="step-grid">
              {product.cadastroQuestions.map((question) => (
                <QuestionInput
                  key={question.name}
                  question={question}
                  fieldKey={`respostas.${question.name}`}
                  value={answers[question.name] ?? ''}
                  error={errors[`respostas.${question.name}`]}
                  onChange={(value) => setAnswers((a) => ({ ...a, [question.name]: value }))}
                />
              ))}
            </div>
          </section>
        ) : null}
      </fieldset>
      <StepActions
        readOnly={readOnly}
        submitting={submitting}
        submitLabel={quote ? 'Salvar e continuar' : 'Salvar cotação e continuar'}
        nextHref={quote ? stepPath(generation, line, nextStep(flow, 'cadastro')!, quote.nrCotacao, { action: 'visualizar' }) : undefined}
      />
    </form>
  );
}
