import { type Kysely, sql } from 'kysely';

/**
 * Issue 31, the insured kept informed.
 *
 * insured_reminders   one row per reminder decided: (tipo, alvo_id, prazo) is unique — alvo_id the
 *                     installment (BOLETO, ATRASO) or the policy (FIM_VIGENCIA), prazo its due date or
 *                     end of term — and the row is written in the transaction that queues the e-mail.
 *                     Two instances, or a turn after a restart, meet the key: one message, ever. A
 *                     reminder not sent (no e-mail, opted out, closed) keeps its row with why, so it is
 *                     decided once and never read again by a turn.
 * insured_links       the public links an e-mail carries (the token's SHA-256 only, like policy_links):
 *                     BOLETO opens one installment's boleto and Pix; LEMBRETES lets the insured opt out.
 * reminder_opt_outs   the insured's choice, by key ('doc:<digits>' and 'email:<address>', lib/insured-messages.ts):
 *                     a row is an opt-out; opting back in deletes it.
 *
 * The job's turns read open installments and policies in force by date (a window of a few days), so
 * at 1000× the demo a turn reads an index range, never the whole book.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table insured_reminders (
    id serial primary key,
    tipo text not null check (tipo in ('BOLETO', 'ATRASO', 'FIM_VIGENCIA')),
    alvo_id integer not null,
    prazo date not null,
    policy_id integer not null references policies (id),
    resultado text not null check (resultado in ('ENVIADO', 'SEM_EMAIL', 'DESCADASTRADO', 'ENCERRADO')),
    email text,
    created_at timestamptz not null default now(),
    unique (tipo, alvo_id, prazo)
  )`.execute(db);
  await sql`create index insured_reminders_policy on insured_reminders (policy_id, created_at)`.execute(db);

  await sql`create table insured_links (
    id serial primary key,
    tipo text not null check (tipo in ('BOLETO', 'LEMBRETES')),
    token_hash text not null unique,
    policy_id integer not null references policies (id),
    installment_id integer references installments (id),
    documento text not null,
    email text not null,
    expira_em timestamptz not null,
    created_at timestamptz not null default now()
  )`.execute(db);

  await sql`create table reminder_opt_outs (
    chave text primary key,
    created_at timestamptz not null default now()
  )`.execute(db);

  // The job's windows: open installments by due date (migration 037's installments_open_due), policies in force by their last day.
  await sql`create index policies_in_force_end on policies (fim_vigencia, id) where status = 'VIGENTE'`.execute(db);
}
