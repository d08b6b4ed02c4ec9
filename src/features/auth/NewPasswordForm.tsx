import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Field, PasswordField } from '../../components/ui/Field';
import { Button } from '../../components/ui/Button';
import { firstAccessSchema, resetPasswordSchema } from '../../lib/auth-schemas';
import { createClient, toFailure, type ApiBases } from '../../lib/http';
import { PasswordChecklist } from './PasswordChecklist';

type Props =
  | { mode: 'reset'; apis: ApiBases; base: 'plataforma' | 'bff'; token: string }
  | { mode: 'first-access'; apis: ApiBases; email?: string };

interface Values {
  email?: string;
  codigo?: string;
  token?: string;
  senha: string;
  confirmacao: string;
}

/**
 * Choosing a password: from a reset link (/redefinir-senha, /v2/senha) or with the e-mailed
 * validation code on first access (/cadastro-login).
 */
export default function NewPasswordForm(props: Props) {
  const [failure, setFailure] = useState<string>();
  const isReset = props.mode === 'reset';
  const {
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    // One form, two schemas: the values type covers both.
    resolver: zodResolver(isReset ? resetPasswordSchema : firstAccessSchema) as unknown as Resolver<Values>,
    mode: 'onSubmit',
    defaultValues: isReset ? { token: props.token } : { email: props.email ?? '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      if (props.mode === 'reset') {
        const answer = await createClient(props.apis, props.base)<{ resultado?: { login: string }; dado?: { login: string } }>(
          '/v1/senha/redefinir',
          { method: 'POST', body: values },
        );
        const login = (answer.resultado ?? answer.dado)?.login ?? '/signin';
        window.location.assign(`${login}?senha=redefinida`);
      } else {
        const answer = await createClient(props.apis, 'plataforma')<{ resultado: { geracao: 'v1' | 'v2' } }>('/v1/primeiro-acesso', {
          method: 'POST',
          body: values,
        });
        window.location.assign(answer.resultado.geracao === 'v2' ? '/v2/cadastro-realizado' : '/cadastro-realizado');
      }
    } catch (error) {
      const f = toFailure(error);
      const onFields = Object.entries(f.fieldErrors).filter(([field]) => ['email', 'codigo', 'senha', 'confirmacao'].includes(field));
      for (const [field, messages] of onFields) setError(field as keyof Values, { message: messages[0] });
      // Said once: beside its field when it names one, else above the form (issue 42).
      setFailure(onFields.length > 0 ? undefined : f.message);
    }
  });

  return (
    <form method="post" onSubmit={onSubmit} noValidate>
      {failure ? (
        <div className="alert alert-error" role="alert">
          {failure}
        </div>
      ) : null}
      {isReset ? null : (
        <>
          <Field label="E-mail" type="email" autoComplete="username" error={errors.email?.message} {...register('email')} />
          <Field
            label="Código de validação"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            announceLimit={false}
            hint="Os 6 dígitos do e-mail de primeiro acesso."
            error={errors.codigo?.message}
            {...register('codigo')}
          />
        </>
      )}
      <PasswordField
        label="Nova senha"
        autoComplete="new-password"
        error={errors.senha?.message}
        hint={<PasswordChecklist password={watch('senha') ?? ''} />}
        {...register('senha')}
      />
      <PasswordField
        label="Confirme a nova senha"
        autoComplete="new-password"
        error={errors.confirmacao?.message}
        {...register('confirmacao')}
      />
      <Button type="submit" block loading={isSubmitting}>
        {isReset ? 'Redefinir senha' : 'Cadastrar senha'}
      </Button>
    </form>
  );
}
