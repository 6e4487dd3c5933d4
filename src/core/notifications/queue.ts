// Writing a notice: always inside the caller's transaction, so it commits with the change that
// caused it (a cancelled hosting account and its "cancelled" mail, or neither). In the sandbox the
// caller's handle is the rolled-back transaction, so a sandbox notice never exists.
import { findAccount } from '../../db/queries/accounts.ts';
import { insertNotification } from '../../db/queries/notifications.ts';
import type { Notification } from '../../db/schema.ts';
import { notFound } from '../errors.ts';
import type { Db } from '../types.ts';
import { BODY_MAX, KIND_MAX, KIND_PATTERN, SUBJECT_MAX } from './types.ts';

export interface NoticeInput {
  /** null: a notice to a staff member (then `toEmail` is required). */
  accountId: string | null;
  /** Dotted: hosting.cancelled, ticket.answered, service.suspended, domain.expiring… */
  kind: string;
  /** One line; control characters become spaces, longer than 200 characters is cut. */
  subject: string;
  /** Plain text, up to 100,000 characters (cut beyond). */
  body: string;
  /** Default: the account's email as it is now. */
  toEmail?: string;
}

// Subjects and bodies carry customer text (a ticket title, a cancel reason): a notice must never
// be the reason the change it reports fails, so text is made storable rather than refused.
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is being removed
  const line = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return line.length > SUBJECT_MAX ? `${line.slice(0, SUBJECT_MAX - 1)}…` : line;
}

function storableBody(text: string): string {
  const body = text.replaceAll('\u0000', '');
  return body.length > BODY_MAX ? `${body.slice(0, BODY_MAX - 1)}…` : body;
}

/** Queues a notice to an account (its email unless `toEmail`); the worker sends it when SMTP_URL is set. */
export async function queueNotification(trx: Db, input: NoticeInput): Promise<Notification> {
  // A bad kind or address is a programming error of the caller, not the customer's.
  if (!KIND_PATTERN.test(input.kind) || input.kind.length > KIND_MAX) throw new Error(`notification kind "${input.kind}" is not dotted lower-case words`);
  const subject = oneLine(input.subject);
  if (subject === '') throw new Error('a notification needs a subject');
  let to = input.toEmail;
  if (to === undefined) {
    if (input.accountId === null) throw new Error('a notice to no account needs toEmail');
    const account = await findAccount(trx, input.accountId);
    if (!account) throw notFound('Account');
    to = account.email;
  }
  if (!/^[^\s@]+@[^\s@]+$/.test(to) || to.length > 254) throw new Error(`"${to}" is not an email address`);
  return insertNotification(trx, { account_id: input.accountId, kind: input.kind, to_email: to, subject, body: storableBody(input.body) });
}
