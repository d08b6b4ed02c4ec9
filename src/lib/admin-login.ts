/**
 * SPEC §6: the provider's admin signs in with the user name without the provider's e-mail domain.
 * The v2 login screen strips it; other e-mails go as typed.
 */
export function stripProviderDomain(email: string, providerDomain: string): string {
  const suffix = `@${providerDomain.toLowerCase()}`;
  return email.endsWith(suffix) ? email.slice(0, -suffix.length) : email;
}
