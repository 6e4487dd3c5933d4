// What the core reports about its real work, for logs and metrics. The core only describes what
// happened; the wiring (src/telemetry/) decides how it is logged and counted. Events of a
// transaction are delivered after it commits (db/transaction.ts), so a rolled-back charge or a
// sandbox request never shows up as done.
import type { TransactionType } from '../db/schema.ts';
import { carriedEvents, carryToCommit } from '../db/transaction.ts';
import type { Db } from './types.ts';

export interface BillingEvent {
  kind: 'billing';
  type: TransactionType;
  accountId: string;
  cents: number;
  balanceAfterCents: number;
  transactionId: number;
  description: string;
  /** What was paid for or refunded, as `type/id` (e.g. `server/srv_…`); null for a deposit. */
  resource: string | null;
}

export type OperationOutcome = 'completed' | 'failed' | 'retried' | 'compensated';

export interface OperationEvent {
  kind: 'operation';
  outcome: OperationOutcome;
  operationId: string;
  type: string;
  accountId: string;
  /** `resource_type/resource_id`. */
  resource: string;
  /** From creation to the end (completed/failed). */
  durationS?: number;
  /** Which run this was (retried: the one that failed). */
  attempt?: number;
  /** failed: the customer-facing detail; retried: the error. */
  reason?: string;
  /** compensated: what was given back. */
  refundCents?: number;
}

/** What a verified payment webhook did: its outcome (confirm.ts), or `ignored` for an event we do not act on. */
export type PaymentWebhookOutcome = 'credited' | 'already_paid' | 'not_paid' | 'mismatch' | 'unknown' | 'ignored';

export interface PaymentWebhookEvent {
  kind: 'payment_webhook';
  provider: string;
  outcome: PaymentWebhookOutcome;
  eventId: string;
  eventType: string;
  /** The provider's id of the payment it is about (a Stripe Checkout Session id); null when ignored. */
  ref: string | null;
  /** The reference the provider carries for it (our payment id when it is ours). */
  reference: string | null;
  /** Our payment, when one has that provider id. */
  paymentId: string | null;
}

/** A customer-visible event written by the core itself (core/events/record.ts). */
export interface RecordedEvent {
  kind: 'event';
  type: string;
}

export type CoreEvent = BillingEvent | OperationEvent | PaymentWebhookEvent | RecordedEvent;

export type EventSink = (event: CoreEvent) => void;

/** Reports `event` once the work it describes is committed (at once outside a transaction). */
export function afterCommit(db: Db, event: CoreEvent): void {
  carryToCommit(db, event);
}

/** The events `trx` has collected so far (e.g. the refunds a compensation made). */
export function pendingEvents(trx: Db): readonly CoreEvent[] {
  // Only afterCommit above hands db/transaction.ts events, so what it carries is a CoreEvent.
  return carriedEvents(trx) as readonly CoreEvent[];
}
