import { useState, type FormEvent } from 'react';
import { safeParse } from 'zod/v4/core';
import { Field, PasswordField } from '../../components/ui/Field';
import { Button } from '../../components/ui/Button';
import { loginFormSchema } from '../../lib/auth-schemas';
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
  /** The page's own answer to a form posted before this script ran (or without it): what was typed, what is wrong. */
  initialEmail?: string;
  initialErrors?: Errors;
  initialBanner?: string;
}

type Errors = Partial<Record<'email' | 'senha', string>>;

/** The password was right and the second factor is due: where its step is. */
interface SecondStep {
  endereco: string;
}

const PASSWORD_HELP = 'A senha deve ter no mínimo 8 caracteres, com letras maiúsculas e minúsculas e caracteres especiais.';
const LOGIN_HELP = {
  v1: 'Use o e-mail cadastrado para você no portal.',
  v2: 'Use o e-mail cadastrado para você pela sua empresa. Administradores da seguradora podem usar o e-mail corporativo.',
};

/**
 * The sign-in form of both generations (SPEC §2, §5, §8). Two fields validated on submit only: it
 * reads the form itself rather than pulling react-hook-form into the lightest page of the portal
 * (docs/decisions/012-javascript-budget.md). It is a plain POST form too: submitted before this
 * script runs, or without JavaScript, the page itself signs in or answers with the same messages
 * (features/auth/login.server.ts), which arrive here as the initial state.
 */
export default function LoginForm({ generation, apis, next, providerDomain, appName, initialEmail, initialErrors, initialBanner }: Props) {
  const [errors, setErrors] = useState<Errors>(initialErrors ?? {});
  const [banner, setBanner] = useState<string | undefined>(initialBanner);
  const [submitting, setSubmitting] = useState(false);

  /** Each sign-in answers where to go next: home, or the second factor's step (decision 068). */
  async function signInV1(email: string, senha: string): Promise<SecondStep | undefined> {
    const plataforma = createClient(apis, 'plataforma');
    const { resultado } = await plataforma<{ resultado: { idUsuario: number; segundoFator?: SecondStep } }>('/v1/login', {
      method: 'POST',
      body: { user_name: email, password: senha },
    });
    if (resultado.segundoFator) return resultado.segundoFator;
    // SPEC §4: the legacy login fetches the user's permissions before going home.
    await plataforma(`/v1/permissoes/${resultado.idUsuario}`);
  }

  async function signInV2(email: string, senha: string): Promise<SecondStep | undefined> {
    const userName = stripProviderDomain(email, providerDomain);
    const isAdmin = userName !== email;
    const answer = await createClient(apis, 'gateway')<{ segundoFator?: SecondStep }>('/login', {
      method: 'POST',
      body: { userName, password: senha },
      query: isAdmin ? undefined : { APP_NAME: appName },
    });
    if (answer.segundoFator) return answer.segundoFator;
    await createClient(apis, 'bff')('/v1/usuario');
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = Object.fromEntries(new FormData(form));
    const parsed = safeParse(loginFormSchema, values);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as keyof Errors] ??= issue.message;
      setErrors(found);
      form.querySelector<HTMLInputElement>(`[name="${found.email ? 'email' : 'senha'}"]`)?.focus();
      return;
    }
    setErrors({});
    setBanner(undefined);
    setSubmitting(true);
    try {
      const { email, senha } = parsed.data;
      const secondStep = await (generation === 'v1' ? signInV1(email, senha) : signInV2(email, senha));
      const home = next ?? HOME_PATH[generation];
      window.location.assign(secondStep ? `${secondStep.endereco}?next=${encodeURIComponent(home)}` : home);
    } catch (error) {
      const failure = toFailure(error);
      const placement = loginErrorPlacement(failure.status, failure.message);
      if (placement.field) {
        setErrors({ [placement.field]: placement.message });
        form.querySelector<HTMLInputElement>(`[name="${placement.field}"]`)?.focus();
      } else {
        setBanner(placement.message || DEFAULT_ERROR.title);
      }
      setSubmitting(false);
    }
  }

  // method="post": a submit before the island hydrates must not put the password in the URL.
  return (
    <form method="post" onSubmit={onSubmit} noValidate aria-label="Entrar no portal">
      {banner ? (
        <div className="alert alert-error" role="alert">
          {banner}
        </div>
      ) : null}
      <Field
        label="Login"
        name="email"
        type="email"
        autoComplete="username"
        inputMode="email"
        placeholder="seu.email@empresa.com.br"
        defaultValue={initialEmail}
        error={errors.email}
        help={LOGIN_HELP[generation]}
      />
      <PasswordField label="Senha" name="senha" autoComplete="current-password" error={errors.senha} help={PASSWORD_HELP} />
      <Button type="submit" block loading={submitting}>
        Entrar
      </Button>
    </form>
  );
}
