import { database } from '../../server/boot/database';
import { mailboxEnabled } from '../../server/config';
import { pageOfEmails, type MailboxMessage } from '../../server/mail/outbox';
import { pageWithin, withReadablePage, type Paged } from '../../lib/list-query';
import { MAILBOX_FIELDS, MAILBOX_PAGE_SIZE, parseMailboxQuery, type MailboxField } from '../../lib/mailbox';
import { isProviderAdmin, type PortalSession } from '../../lib/session';

/**
 * /caixa-postal (decision 028): the e-mails the portal wrote, for the provider's administrators only,
 * where no mail leaves the server. Issue 27: twenty a page with the page in the address, filtered by
 * recipient and subject with a plain GET form, as the portal's other lists; a page that is no number
 * shows the first, one past the last the last (lib/list-query.ts).
 */
export interface MailboxProps {
  /** Whether the visitor may read it (else: why, and both logins). */
  reader: boolean;
  values: Partial<Record<MailboxField, string>>;
  errors?: Record<string, string[]>;
  result?: Paged<MailboxMessage>;
}

export type MailboxRouted = { kind: 'not-found' } | { kind: 'forbidden' } | { kind: 'page'; status: number; props: MailboxProps };

export async function mailboxPage(session: PortalSession, url: URL): Promise<MailboxRouted> {
  if (!mailboxEnabled()) return { kind: 'not-found' };
  const reader = isProviderAdmin(session);
  if (!reader && (session.v1 || session.v2)) return { kind: 'forbidden' };
  const values = Object.fromEntries(MAILBOX_FIELDS.map((field) => [field, url.searchParams.get(field) ?? undefined]));
  if (!reader) return { kind: 'page', status: 401, props: { reader, values } };
  const query = parseMailboxQuery(withReadablePage(url.searchParams));
  if (!query.ok) return { kind: 'page', status: 400, props: { reader, values, errors: query.errors } };
  const db = await database();
  const result = await pageWithin(query.page, (page) => pageOfEmails(db, query.filters, page, MAILBOX_PAGE_SIZE));
  return { kind: 'page', status: 200, props: { reader, values, result } };
}
