// The SMTP mailer of the notifications outbox, on nodemailer. Timeouts are short so a mail server
// that hangs costs one failed attempt (retried later), never a stuck sender.
import { createRequire } from 'node:module';
import type Nodemailer from 'nodemailer';
import type { Mailer } from '../core/notifications/types.ts';

/** Connect, greeting and idle limits of one send; together well inside the sender's claim lease. */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export interface SmtpMailer extends Mailer {
  close(): void;
}

/** The address of a From such as `Hostcloud <noreply@localhost>` (SMTP_FROM), or the whole of a bare one. */
export function addressOf(from: string): string {
  const m = /<([^<>]+)>\s*$/.exec(from);
  return (m ? m[1]! : from).trim();
}

export function createSmtpMailer(url: string, from: string): SmtpMailer {
  // Settings in the URL (e.g. ?pool=true) win over these defaults.
  // Loaded here, not at start: the bundle holds serve and worker alike, and most processes never mail.
  const nodemailer = createRequire(import.meta.url)('nodemailer') as typeof Nodemailer;
  const transport = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS }, { from });
  return {
    async send(m) {
      // The branding's name before SMTP_FROM's address (nodemailer quotes or encodes the name).
      await transport.sendMail({ to: m.to, subject: m.subject, text: m.text, ...(m.fromName ? { from: { name: m.fromName, address: addressOf(from) } } : {}) });
    },
    close: () => transport.close(),
  };
}
