// The next charge of a resource, as its detail shows it (recurring billing, core/billing/upcoming.ts).
import { Type } from '@sinclair/typebox';
import { CHARGE_PARTS, type UpcomingCharge } from '../../../core/billing/upcoming.ts';
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
  breakdown: Type.Optional(Type.Array(Type.Object({
    part: StringEnum(CHARGE_PARTS, {
      description: '`server`: the machine itself (its package or custom size); `extra_ips`: its extra addresses; `snapshots`: the monthly fees of its '
        + 'snapshots; `reseller_discount`: the discount of the account\'s reseller tier, taken off the whole (negative).',
    }),
    amount: ref(MoneySchema),
  }), {
    description: 'Servers, scheduled charges: what `amount` is made of, parts that add up to it to the cent (a part of 0 is left out, but `server`). '
      + 'The server\'s `billing.amount` is its `server` and `extra_ips` parts; snapshot fees are billed in the same cycle, so `amount` may be more. '
      + 'Absent for an overdue charge, whose amount was fixed when it fell due (its `description` says what it covers).',
    examples: [[
      { part: 'server', amount: { amount: '15.00', currency: 'USD' } },
      { part: 'extra_ips', amount: { amount: '3.00', currency: 'USD' } },
      { part: 'snapshots', amount: { amount: '1.50', currency: 'USD' } },
    ]],
  })),
}, {
  description: 'The next charge of recurring billing for this resource (an addition to the Hosting Cloud API v2; shown in the detail only). `amount` is the whole '
    + 'charge as the billing pass will make it: for a server, its `billing.amount` plus the monthly fees of its snapshots, less any reseller '
    + 'discount (`breakdown` shows the parts).',
}));

/** The optional field the detail schemas (Server, WebHosting, Domain) carry. */
export const NextChargeField = Type.Optional(ref(NextChargeSchema));

export function nextChargeView(c: UpcomingCharge | null) {
  if (!c) return {};
  return {
    next_charge: {
      description: c.description, amount: money(c.amountCents), due_at: ts(c.dueAt), period_start: ts(c.periodStart), period_end: ts(c.periodEnd), status: c.status,
      ...(c.breakdown ? { breakdown: c.breakdown.map((p) => ({ part: p.part, amount: money(p.cents) })) } : {}),
    },
  };
}
