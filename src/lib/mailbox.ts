import * as z from 'zod/mini';
import { listHref, optionalField, pageField, parseListQuery, type ParsedListQuery } from './list-query';

/*
 * The demo mailbox's list (decision 028; issue 27 gave it pages and filters): the messages the portal
 * wrote, newest first, twenty a page, filtered by recipient and subject (any part, case ignored),
 * with the filters and the page in the address as in the portal's other lists.
 */

export const MAILBOX_PATH = '/caixa-postal';
export const MAILBOX_PAGE_SIZE = 20;
export const MAILBOX_FIELDS = ['para', 'assunto'] as const;
export type MailboxField = (typeof MAILBOX_FIELDS)[number];

export const MAILBOX_MESSAGES = {
  para: 'Destinatário muito longo (até 254 caracteres).',
  assunto: 'Assunto muito longo (até 200 caracteres).',
  page: 'Página inválida.',
} as const;

const text = (max: number, message: string) => optionalField(z.string({ error: message }).check(z.maxLength(max, message)));

const mailboxQuerySchema = z.object({
  para: text(254, MAILBOX_MESSAGES.para),
  assunto: text(200, MAILBOX_MESSAGES.assunto),
  page: optionalField(pageField(MAILBOX_MESSAGES.page)),
});

export type MailboxFilters = { para?: string; assunto?: string };

export const parseMailboxQuery = (query: URLSearchParams | Record<string, unknown>): ParsedListQuery<MailboxFilters> =>
  parseListQuery(mailboxQuerySchema, query);

/** The mailbox's address for these filters and page. */
export const mailboxHref = (values: Partial<Record<MailboxField, string>>, page = 1) =>
  listHref(MAILBOX_PATH, MAILBOX_FIELDS, values, page);
