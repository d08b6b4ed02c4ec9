import { DEFAULT_ERROR } from '../../lib/http';

/**
 * SPEC §8: a 500 says 'Ocorreu um erro, tente novamente.'; other errors show the server message in
 * upper case with its status; a 404 marks the e-mail field, other statuses the password field.
 * Without an answer at all (network) the default toast text is shown above the form.
 */
export function loginErrorPlacement(status: number, message: string): { field?: 'email' | 'senha'; message: string } {
  if (status === 0) return { message: `${DEFAULT_ERROR.title}. ${DEFAULT_ERROR.text}` };
  if (status === 500) return { field: 'senha', message: 'Ocorreu um erro, tente novamente.' };
  return { field: status === 404 ? 'email' : 'senha', message: `${message.toUpperCase()} (${status})` };
}
