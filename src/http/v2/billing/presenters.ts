// The next charge of a resource, as its detail shows it (recurring billing, core/billing/upcoming.ts).
import { Type } from '@sinclair/typebox';
import type { UpcomingCharge } from '../../../core/billing/upcoming.ts';
import { money } from '../../../core/money.ts';
import { ts } from '../../../core/time.ts';
import { MoneySchema, StringEnum, Timestamp, component, ref } from '../../schemas.ts';

export const NextChargeSchema = component('NextCharge', Type.Object({
  description: Type.String({ description: 'What the ledger row will say', examples: ['Server web-1 (srv_8fK2mQ): monthly cycle, 5.00 USD'] }),
  amount: ref(MoneySchema),
  due_at: { ...Timestamp, description: 'When the billing pass charges it; for an overdue charge, since when it is due.' },
  period_start: Timestamp,
  period_end: Timestamp,
  status: StringEnum(['scheduled', 'overdue'] as const, { description: 'overdue: the balance did not cover it; a deposit pays it' }),
}, { description: 'The next charge of recurring billing for this resource (an addition to the spec; shown in the detail only).' }));

/** The optional field the detail schemas (Server, WebHosting, Domain) carry. */
export const NextChargeField = Type.Optional(ref(NextChargeSchema));

export function nextChargeView(c: UpcomingCharge | null) {
  if (!c) return {};
  return {
    next_charge: {
      description: c.description, amount: money(c.amountCents), due_at: ts(c.dueAt), period_start: ts(c.periodStart), period_end: ts(c.periodEnd), status: c.status,
    },
  };
}
