// Balance and ledger as v1 shapes them: numbers, withdrawals negative, and two types only — a
// refund is money coming back, so it reads as a `deposit` whose description says what was refunded.
import type { BalanceSummary } from '../../../core/billing/ledger.ts';
import { ts } from '../../../core/time.ts';
import type { Transaction } from '../../../db/schema.ts';
import { v1money as v1Amount } from '../reply.ts';

export function v1Balance(b: BalanceSummary) {
  return { balance: v1Amount(b.balanceCents), total_deposits: v1Amount(b.inCents), total_withdrawals: v1Amount(b.outCents) };
}

export function v1Transaction(t: Transaction) {
  const withdraw = t.type === 'withdraw';
  return {
    id: t.id,
    type: withdraw ? 'withdraw' as const : 'deposit' as const,
    amount: v1Amount(withdraw ? -t.amount_cents : t.amount_cents),
    status: t.status,
    description: t.description,
    created_at: ts(t.created_at),
  };
}
