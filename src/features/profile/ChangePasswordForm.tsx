import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { PasswordField } from '../../components/ui/Field';
import { Button } from '../../components/ui/Button';
import { changePasswordSchema } from '../../lib/auth-schemas';
import { createClient, toFailure, type ApiBases } from '../../lib/http';
import { PasswordChecklist } from '../auth/PasswordChecklist';

interface Values {
  senhaAtual: string;
  senha: string;
  confirmacao: string;
}

/** Profile page: change the password with the current one; other sessions end (the API says so). */
export default function ChangePasswordForm({ apis, base }: { apis: ApiBases; base: 'plataforma' | 'bff' }) {
  const [done, setDone] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const {
    register,
    handleSubmit,
    watch,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(changePasswordSchema),
    mode: 'onSubmit',
  });

  const onSubmit = handleSubmit(async (values) => {
    setDone(undefined);
    setFailure(undefined);
    try {
      const answer = await createClient(apis, base)<{ resultado?: { mensagem: string }; dado?: { mensagem: string } }>('/v1/senha', {
        method: 'PUT',
        body: values,
      });
      setDone((answer.resultado ?? answer.dado)?.mensagem);
      reset();
    } catch (error) {
      const f = toFailure(error);
      for (const field of ['senhaAtual', 'senha', 'confirmacao'] as const) {
        const message = f.fieldErrors[field]?.[0];
        if (message) setError(field, { message });
      }
      if (Object.keys(f.fieldErrors).length === 0) setFailure(f.message);
    }
  });

  return (
    <form method="post" onSubmit={onSubmit} noValidate aria-labelledby="alterar-senha">
      <h2 id="alterar-senha">Alterar senha</h2>
      {done ? (
        <div className="alert alert-success" role="status">
          {done}
        </div>
      ) : null}
      {failure ? (
        <div className="alert alert-error" role="alert">
          {failure}
        </div>
      ) : null}
      <PasswordField label="Senha atual" autoComplete="current-password" error={errors.senhaAtual?.message} {...register('senhaAtual')} />
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
      <Button type="submit" loading={isSubmitting}>
        Alterar senha
      </Button>
    </form>
  );
}
