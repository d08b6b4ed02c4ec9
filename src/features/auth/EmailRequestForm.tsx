import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Field } from '../../components/ui/Field';
import { Button } from '../../components/ui/Button';
import { forgotPasswordSchema } from '../../lib/auth-schemas';
import { createClient, toFailure, type ApiBases } from '../../lib/http';

interface Props {
  apis: ApiBases;
  /** Legacy screens call the platform API, v2 screens the BFF (DESIGN §5). */
  base: 'plataforma' | 'bff';
  /** '/v1/senha/esqueci' (forgot password) or '/v1/codigo-validacao/reenviar' (resend code). */
  path: string;
  submitLabel: string;
}

/** One e-mail field and a generic answer: forgot password and resend validation code. */
export default function EmailRequestForm({ apis, base, path, submitLabel }: Props) {
  const [done, setDone] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(forgotPasswordSchema),
    mode: 'onSubmit',
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      const answer = await createClient(apis, base)<{ resultado?: { mensagem: string }; dado?: { mensagem: string } }>(path, {
        method: 'POST',
        body: values,
      });
      setDone((answer.resultado ?? answer.dado)?.mensagem);
    } catch (error) {
      setFailure(toFailure(error).message);
    }
  });

  if (done)
    return (
      <div className="alert alert-success" role="status">
        {done}
      </div>
    );
  return (
    <form method="post" onSubmit={onSubmit} noValidate>
      {failure ? (
        <div className="alert alert-error" role="alert">
          {failure}
        </div>
      ) : null}
      <Field label="E-mail" type="email" autoComplete="email" inputMode="email" error={errors.email?.message} {...register('email')} />
      <Button type="submit" block loading={isSubmitting}>
        {submitLabel}
      </Button>
    </form>
  );
}
