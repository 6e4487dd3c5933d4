// POST /domains in three database round trips when it can: one read of everything the checks need
// (db/queries/domain-register.ts), the registrar's availability check, then one statement writing
// the idempotency record (with its answer), the pending domain, the charge, the operation and its
// job (db/queries/billable-create.ts) — atomic on its own, no BEGIN or COMMIT (it was fourteen
// round trips before). Whenever that statement cannot be sure — a key already used, the name taken
// meanwhile, the balance short — it writes nothing and the request goes the transaction way below,
// which answers exactly. The checks are register.ts's, in the same order, in both ways, and so is what
// they write (planRegistration).
//
// Not taken: the sandbox (its transaction is rolled back, its ids and queue are its own), a queue
// that cannot describe its job row, free registrations and charges beyond the ledger's maximum.
import { readRegistrationBasis } from '../../db/queries/domain-register.ts';
import { writeCreateInOneStatement } from '../billing/create-in-one-statement.ts';
import { MAX_AMOUNT_CENTS } from '../billing/ledger.ts';
import type { Ctx } from '../context.ts';
import { ApiError, invalid } from '../errors.ts';
import { type Replayable, idempotent } from '../idempotency/service.ts';
import { queuedOperation } from '../operations/service.ts';
import { domainNameAt, hostNameOf, tldsToPrice } from './names.ts';
import { registryAvailability } from './read.ts';
import {
  type Idempotency, type Placed, type RegisterInput, type RegistrationOrder, checkBalance, checkFreeWithUs, newRegistrationIds, orderOf,
  placeRegistration, planRegistration, prepareRegistration,
} from './register.ts';

/** POST /domains, with its Idempotency-Key: the 201 answer `present` makes of the placed order, or the stored one. */
export async function registerDomain(
  ctx: Ctx, input: RegisterInput, idem: Idempotency, present: (placed: Placed) => unknown,
): Promise<Replayable> {
  const body = await registerInOneStatement(ctx, input, idem, present);
  if (body !== undefined) return { outcome: 'created', body, replayed: false };
  let order: RegistrationOrder | undefined;
  // The checks and the registrar's word come before the transaction; a retry whose first answer is
  // stored is replayed without them (its name is taken by now — by that very first request).
  return idempotent(ctx, idem.key, idem.fingerprint, async (trx) => {
    // Unchecked only when another request's expired record under this key vanished meanwhile.
    if (!order) throw new ApiError('IDEMPOTENCY_KEY_CONFLICT', 'A request with this Idempotency-Key is still being processed; retry shortly');
    return { outcome: 'created', body: present(await placeRegistration(ctx, trx, order)) };
  }, {
    beforeTransaction: async () => {
      order = await prepareRegistration(ctx, ctx.db, input);
      await requireRegistryAvailable(ctx, order.name);
    },
  });
}

async function requireRegistryAvailable(ctx: Ctx, name: string): Promise<void> {
  if (!(await registryAvailability(ctx, [name])).get(name)) throw invalid('domain', `${name} is not available: it is registered already`);
}

/** The 201 body, or undefined when the registration must go the transaction way (nothing was written). */
async function registerInOneStatement(ctx: Ctx, input: RegisterInput, idem: Idempotency, present: (placed: Placed) => unknown): Promise<unknown> {
  const enqueueRow = ctx.jobs.enqueueRow;
  if (ctx.sandbox || ctx.db.isTransaction || !enqueueRow) return undefined;
  const host = hostNameOf(input.domain);
  const basis = await readRegistrationBasis(ctx.db, { accountId: ctx.accountId, key: idem.key ?? null, tlds: tldsToPrice(host), name: host.name });
  // A key in use replays or conflicts; a vanished account is the transaction way's 404.
  if (basis.key_taken || basis.balance_cents === null) return undefined;
  const { domain, price } = domainNameAt(host, basis.prices);
  // The live-name row was read for the name as typed: only good for the same name.
  if (domain.name !== host.name) return undefined;
  const order = orderOf(input, domain.name, price, ctx.dnsNameservers);
  checkFreeWithUs(ctx, order.name, basis.held);
  checkBalance(basis.balance_cents, order.cents);
  if (order.cents <= 0 || order.cents > MAX_AMOUNT_CENTS) return undefined;
  await requireRegistryAvailable(ctx, order.name);

  const plan = planRegistration(ctx, order, newRegistrationIds());
  const operation = queuedOperation(ctx, plan.operation);
  const body = present({ domain: { ...plan.row, price: order.price }, operation });
  const written = await writeCreateInOneStatement(ctx, {
    key: idem.key, fingerprint: idem.fingerprint, body, resource: { table: 'domains', row: plan.row }, charge: plan.charge, operation, enqueue: enqueueRow(operation.id),
  });
  return written ? body : undefined;
}
