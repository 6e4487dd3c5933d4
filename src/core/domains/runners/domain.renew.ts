// domain.renew, as the worker sees it: the recovery behind POST /domains/{id}/renew (renew.ts).
// The request holds the operation's lease and finishes it in its own tx2; nothing is queued. If
// the request died between its transactions, the lease lapses, the worker's sweep queues it and
// this runner renews with the request's token (a renewal the registrar already made is answered
// from its record, not made twice) and stores the expiry and the keyed answer; if the registrar
// keeps failing, the compensation refunds and frees the key — the request's own failure path.
import { forgetIdempotencyKey, saveIdempotentResponse } from '../../../db/queries/idempotency.ts';
import { type DomainRow, findDomainById, updateDomain } from '../../../db/queries/domains.ts';
import { refund } from '../../billing/ledger.ts';
import type { Runner } from '../../operations/runner.ts';
import type { Db } from '../../types.ts';
import { registrarOf } from '../upstream.ts';
import { domainBody } from '../view.ts';

export interface RenewParams {
  name: string;
  service_id: string;
  years: number;
  charged_cents: number;
  /** ISO time: the expiry this renewal extends. */
  current_expires_at: string;
  /** The record key of the request's Idempotency-Key, whose placeholder awaits the answer; null without one. */
  idempotency_key: string | null;
}

/** Success, in tx2 or the safety net: the new expiry and, for a keyed request, the answer its duplicates replay. */
export async function storeRenewal(trx: Db, accountId: string, domainId: string, p: RenewParams, expiresAt: Date): Promise<DomainRow> {
  await updateDomain(trx, domainId, { expires_at: expiresAt, status: 'active' });
  const row = (await findDomainById(trx, domainId))!;
  if (p.idempotency_key !== null) await saveIdempotentResponse(trx, accountId, p.idempotency_key, 'done', domainBody(row, row.price));
  return row;
}

/** Failure, in the compensation of the operation (the request's or the safety net's): refund, key freed. */
export async function undoRenewal(trx: Db, accountId: string, domainId: string, p: RenewParams, reason: string): Promise<void> {
  if (p.charged_cents > 0) {
    await refund(trx, accountId, p.charged_cents, `Refund: renewal of domain ${p.name} (${p.service_id}) failed (${reason})`, `domain/${domainId}`);
  }
  if (p.idempotency_key !== null) await forgetIdempotencyKey(trx, accountId, p.idempotency_key);
}

export const domainRenewRunner: Runner<RenewParams> = {
  async run(rc, op) {
    const p = op.params;
    const { expiresAt } = await registrarOf(rc).renew({ token: op.id, name: p.name, years: p.years, currentExpiresAt: new Date(p.current_expires_at) });
    return {
      detail: `Renewed until ${expiresAt.toISOString().slice(0, 10)}`,
      apply: (trx) => storeRenewal(trx, op.account_id, op.resource_id, p, expiresAt).then(() => {}),
    };
  },

  compensate(trx, op, reason) {
    return undoRenewal(trx, op.account_id, op.resource_id, op.params, reason);
  },
};
