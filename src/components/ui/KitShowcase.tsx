import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button, type ButtonSize, type ButtonVariant } from './Button';
import { Field, PasswordField } from './Field';
import { MaskedInput, type MaskName } from './MaskedInput';
import { ConfirmDialog } from './Dialog';
import { Toaster } from './Toaster';
import { DataTable, type DataTableColumn } from './DataTable';
import { Stepper, type StepperStep } from './Stepper';
import { showToast } from '../../stores/toasts';
import { formatMoney } from '../../lib/masks';

/** The UI kit, live, for developers and the e2e suite (/dev/kit-ui, closed in production). */

const SIZES: { size: ButtonSize; label: string }[] = [
  { size: 'small', label: 'pequeno' },
  { size: 'medium', label: 'médio' },
  { size: 'large', label: 'grande' },
];
const VARIANTS: { variant: ButtonVariant; label: string }[] = [
  { variant: 'primary', label: 'Primário' },
  { variant: 'secondary', label: 'Secundário' },
  { variant: 'outline', label: 'Contorno' },
];

const MASKED_FIELDS: { mask: MaskName; label: string; hint?: string }[] = [
  { mask: 'money', label: 'Valor (R$)', hint: 'Digite os centavos depois da vírgula.' },
  { mask: 'number', label: 'Número', hint: 'Até 4 casas decimais; aceita negativos.' },
  { mask: 'percentage', label: 'Percentual (%)', hint: 'No máximo 99,99.' },
  { mask: 'area', label: 'Área construída' },
  { mask: 'cpf', label: 'CPF' },
  { mask: 'cnpj', label: 'CNPJ', hint: 'Aceita o CNPJ alfanumérico.' },
  { mask: 'phone', label: 'Telefone' },
  { mask: 'document', label: 'CPF ou CNPJ' },
];

function MaskedDemo({ mask, label, hint }: (typeof MASKED_FIELDS)[number]) {
  const [values, setValues] = useState({ masked: '', unmasked: '' });
  return (
    <div className="kit-card">
      <MaskedInput mask={mask} label={label} hint={hint} name={mask} onAccept={(masked, unmasked) => setValues({ masked, unmasked })} />
      <p className="kit-values">
        <span>
          Com máscara: <output data-testid={`valor-${mask}`}>{values.masked}</output>
        </span>
        <span>
          Sem máscara: <output data-testid={`sem-mascara-${mask}`}>{values.unmasked}</output>
        </span>
      </p>
    </div>
  );
}

interface FormValues {
  documento: string;
  premio: string;
  nome: string;
}

/** react-hook-form: MaskedInput through a Controller, Field through register. */
function FormDemo() {
  const [sent, setSent] = useState<FormValues>();
  const {
    control,
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<FormValues>({
    defaultValues: { documento: '', premio: '', nome: '' },
  });
  return (
    <form className="kit-card" noValidate aria-label="Formulário de exemplo" onSubmit={handleSubmit(setSent)}>
      <Controller
        name="documento"
        control={control}
        rules={{ required: 'Informe o CPF ou CNPJ.' }}
        render={({ field }) => <MaskedInput mask="document" label="Documento do segurado" error={errors.documento?.message} {...field} />}
      />
      <Controller name="premio" control={control} render={({ field }) => <MaskedInput mask="money" label="Prêmio" {...field} />} />
      <Field label="Nome ou documento (texto livre)" hint="Cole um CPF ou CNPJ aqui." {...register('nome')} />
      <Button type="submit">Enviar</Button>
      {sent ? (
        <pre className="kit-values" data-testid="formulario-enviado">
          {JSON.stringify(sent)}
        </pre>
      ) : null}
    </form>
  );
}

function DialogDemo() {
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState('nenhuma');
  return (
    <div className="kit-row">
      <Button type="button" variant="secondary" onClick={() => setOpen(true)}>
        Nova cotação
      </Button>
      <p className="kit-values">
        Escolha: <output data-testid="escolha-dialogo">{choice}</output>
      </p>
      <ConfirmDialog
        open={open}
        title="Atenção"
        text="Esta ação irá interromper a simulação atual. Deseja iniciar uma nova cotação?"
        confirmLabel="sim"
        cancelLabel="não"
        onConfirm={() => {
          setOpen(false);
          setChoice('sim');
        }}
        onCancel={(reason) => {
          setOpen(false);
          setChoice(reason === 'button' ? 'não' : 'fechado sem escolha');
        }}
      />
    </div>
  );
}

interface Quote {
  numero: number;
  segurado: string;
  produto: string;
  premio: number;
  situacao: string;
}

const PRODUCTS = ['Residencial', 'Empresarial', 'Vida Essencial', 'Itens Pessoais'];
const STATUSES = ['Em cotação', 'Proposta enviada', 'Emitida'];
const NAMES = ['Ana', 'Bruno', 'Carla', 'Daniel', 'Eduarda', 'Felipe', 'Gabriela', 'Heitor'];
const QUOTES: Quote[] = Array.from({ length: 23 }, (_, i) => ({
  numero: 2026000 + i + 1,
  segurado: `${NAMES[i % NAMES.length]} ${['Souza', 'Lima', 'Rocha'][i % 3]}`,
  produto: PRODUCTS[i % PRODUCTS.length]!,
  premio: 150 + ((i * 137.35) % 2400),
  situacao: STATUSES[i % STATUSES.length]!,
}));
const PAGE_SIZE = 5;
const QUOTE_COLUMNS: DataTableColumn<Quote>[] = [
  { key: 'numero', header: 'Nº da cotação' },
  { key: 'segurado', header: 'Segurado' },
  { key: 'produto', header: 'Produto' },
  { key: 'premio', header: 'Prêmio', align: 'end', render: (quote) => formatMoney(quote.premio) },
  { key: 'situacao', header: 'Situação' },
];

function TableDemo() {
  const [page, setPage] = useState(0);
  const totalPages = Math.ceil(QUOTES.length / PAGE_SIZE);
  return (
    <>
      <DataTable
        caption="Cotações recentes"
        columns={QUOTE_COLUMNS}
        rows={QUOTES.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE)}
        rowKey={(quote) => quote.numero}
        page={page}
        totalPages={totalPages}
        onPageChange={setPage}
      />
      <DataTable
        caption="Apólices"
        columns={QUOTE_COLUMNS}
        rows={[]}
        rowKey={(quote) => quote.numero}
        page={0}
        totalPages={0}
        onPageChange={() => {}}
      />
    </>
  );
}

const STEPS: StepperStep[] = [
  { id: 'cadastro', label: 'Cadastro', href: '#etapa-cadastro' },
  { id: 'risco', label: 'Risco', href: '#etapa-risco' },
  { id: 'planos', label: 'Planos', href: '#etapa-planos' },
  { id: 'contratacao', label: 'Contratação', href: '#etapa-contratacao' },
  { id: 'resumo', label: 'Resumo', href: '#etapa-resumo' },
];

function StepperDemo() {
  const [index, setIndex] = useState(2);
  return (
    <>
      <Stepper steps={STEPS} current={STEPS[index]!.id} label="Etapas da cotação" />
      <div className="kit-row">
        <Button type="button" size="small" variant="outline" disabled={index === 0} onClick={() => setIndex(index - 1)}>
          Etapa anterior
        </Button>
        <Button type="button" size="small" variant="outline" disabled={index === STEPS.length - 1} onClick={() => setIndex(index + 1)}>
          Próxima etapa
        </Button>
      </div>
    </>
  );
}

export default function KitShowcase() {
  return (
    <>
      <Toaster />
      <section className="kit-section" aria-labelledby="kit-botoes">
        <h2 id="kit-botoes">Botões</h2>
        {SIZES.map(({ size, label: sizeLabel }) => (
          <div className="kit-row" key={size}>
            {VARIANTS.map(({ variant, label }) => (
              <Button key={variant} type="button" size={size} variant={variant}>
                {label} {sizeLabel}
              </Button>
            ))}
          </div>
        ))}
        <div className="kit-row">
          <Button type="button" disabled>
            Desabilitado
          </Button>
          <Button type="button" loading>
            Salvar
          </Button>
        </div>
      </section>

      <section className="kit-section" aria-labelledby="kit-mascaras">
        <h2 id="kit-mascaras">Campos com máscara</h2>
        <div className="kit-grid">
          {MASKED_FIELDS.map((field) => (
            <MaskedDemo key={field.mask} {...field} />
          ))}
        </div>
      </section>

      <section className="kit-section" aria-labelledby="kit-campos">
        <h2 id="kit-campos">Campos e formulário</h2>
        <div className="kit-grid">
          <div className="kit-card">
            <Field label="Texto livre" hint="Colar um CPF ou CNPJ aplica a máscara; '|' é removido." />
            <PasswordField label="Senha" autoComplete="off" />
          </div>
          <FormDemo />
        </div>
      </section>

      <section className="kit-section" aria-labelledby="kit-dialogo">
        <h2 id="kit-dialogo">Diálogo de confirmação</h2>
        <DialogDemo />
      </section>

      <section className="kit-section" aria-labelledby="kit-avisos">
        <h2 id="kit-avisos">Avisos (toasts)</h2>
        <div className="kit-row">
          <Button type="button" variant="outline" onClick={() => showToast({ kind: 'error' })}>
            Mostrar erro
          </Button>
          <Button type="button" variant="outline" onClick={() => showToast({ kind: 'success', title: 'Cotação salva.' })}>
            Mostrar sucesso
          </Button>
          <Button
            type="button"
            variant="outline"
            onClick={() => showToast({ kind: 'info', title: 'Aviso', text: 'A cotação vale por 30 dias.' })}
          >
            Mostrar aviso
          </Button>
        </div>
      </section>

      <section className="kit-section" aria-labelledby="kit-tabela">
        <h2 id="kit-tabela">Tabela paginada</h2>
        <TableDemo />
      </section>

      <section className="kit-section" aria-labelledby="kit-etapas">
        <h2 id="kit-etapas">Etapas</h2>
        <StepperDemo />
      </section>
    </>
  );
}
