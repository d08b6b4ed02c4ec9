import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Field, PasswordField } from '../../components/ui/Field';
import { Button } from '../../components/ui/Button';
import { loginFormSchema, type LoginForm as LoginValues } from '../../lib/auth-schemas';
import { createClient, toFailure, DEFAULT_ERROR, type ApiBases } from '../../lib/http';
import { stripProviderDomain } from '../../lib/admin-login';
import { HOME_PATH } from '../../lib/paths';
import { loginErrorPlacement } from './login-errors';

interface Props {
  generation: 'v1' | 'v2';
  apis: ApiBases;
  /** Where to go after signing in (already checked to be a path of this site). */
  next?: string;
  providerDomain: string;
  appName: string;
}

const PASSWORD_HELP = 'A senha deve ter no mínimo 8 caracteres, com letras maiúsculas e minúsculas e caracteres especiais.';
const LOGIN_HELP = {
  v1: 'Use o e-mail cadastrado para você no portal.',
  v2: 'Use o e-mail cadastrado para você pela sua empresa. Administradores da seguradora podem usar o e-mail corporativo.',
};

export default function LoginForm({ generation, apis, next, providerDomain, appName }: Props) {
  const [banner, setBanner] = useState<string>();
  const { register, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<LoginValues>({
    resolver: zodResolver(loginFormSchema),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });

  async function signInV1(email: string, senha: string) {
    const plataforma = createClient(apis, 'plataforma');
    const { resultado } = await plataforma<{ resultado: { idUsuario: number } }>('/v1/login', {
      method: 'POST', body: { user_name: email, password: senha },
    });
    // SPEC §4: the legacy login fetches the user's permissions before going home.
    await plataforma(`/v1/permissoes/${resultado.idUsuario}`);
  }

  async function signInV2(email: string, senha: string) {
    const userName = stripProviderDomain(email, providerDomain);
    const isAdmin = userName !== email;
    await createClient(apis, 'gateway')('/login', {
      method: 'POST', body: { userName, password: senha }, query: isAdmin ? undefined : { APP_NAME: appName },
    });
    await createClient(apis, 'bff')('/v1/usuario');
  }

  const onSubmit = handleSubmit(async ({ email, senha }) => {
    setBanner(undefined);
    try {
      await (generation === 'v1' ? signInV1(email, senha) : signInV2(email, senha));
      window.location.assign(next ?? HOME_PATH[generation]);
    } catch (error) {
      const failure = toFailure(error);
      const placement = loginErrorPlacement(failure.status, failure.message);
      if (placement.field) setError(placement.field, { message: placement.message }, { shouldFocus: true });
      else setBanner(placement.message || DEFAULT_ERROR.title);
    }
  });

  // method="post": a submit before the island hydrates must not put the password in the URL.
  return (
    <form method="post" onSubmit={onSubmit} noValidate aria-label="Entrar no portal">
      {banner ? <div className="alert alert-error" role="alert">{banner}</div> : null}
      <Field
        label="Login"
        type="email"
        autoComplete="username"
        inputMode="email"
        placeholder="seu.email@empresa.com.br"
        error={errors.email?.message}
        help={LOGIN_HELP[generation]}
        {...register('email')}
      />
      <PasswordField
        label="Senha"
        autoComplete="current-password"
        error={errors.senha?.message}
        help={PASSWORD_HELP}
        {...register('senha')}
      />
      <Button type="submit" block loading={isSubmitting}>Entrar</Button>
    </form>
  );
}
