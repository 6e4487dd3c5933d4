// The plan of a server create: what the create decides once what it names has been read and
// checked — the row, the monthly price (the machine's and its extra addresses'), the quote of the
// first cycle (the reseller discount applied), the provisioning operation and the machine's
// addresses to reserve. Pure: no read, no clock, no id of its own. Both ways of a create execute
// it (create-request.ts): the one-statement way (read in one statement, the node picked from what
// was read, everything written in one statement) and the transaction way (create.ts: read and
// checked in the transaction, the node locked and placed, then the row, the operation, the
// addresses and the charge written). What differs between them is how they read and place, never
// what they write.
import type { MachineReservation } from '../../db/queries/machine-reservation.ts';
import type { Server } from '../../db/schema.ts';
import type { MachineSpec } from '../../providers/compute/types.ts';
import type { Cents } from '../money.ts';
import type { StartOperation } from '../operations/service.ts';
import { type ServerQuote, quoteAt } from './charge.ts';
import { defaultFirewall } from '../../db/default-firewall.ts';
import { extraIpsPriceAt } from './pricing.ts';
import { addMonth } from './rules.ts';
import { type TrafficSummary, allowanceOf } from './telemetry.ts';

/** What the create makes, as its mode resolved it (a plan, a custom size, a snapshot), and what comes with it. */
export interface ResolvedMachine {
  spec: MachineSpec;
  /** The package, with its monthly transfer allowance; null for a custom size or a snapshot. */
  plan: { id: number; name: string; bandwidth_gb: number } | null;
  osVersionId: number | null;
  osSlug: string | null;
  /** The machine's monthly list price (the plan's, or its size at the unit prices). */
  basePriceCents: Cents;
  sourceSnapshotId: number | null;
  /** OpenSSH public keys to install. */
  sshKeys: string[];
  /** The discount of the account's reseller tier, in basis points (0: none). */
  discountBp: number;
}

/** The request's fields the plan reads (CreateServerInput has them). */
export interface PlanInput {
  name: string;
  location_id: number;
  password: string;
  ipv4_count?: number;
  ipv6_count?: number;
  /** cloud-init user data, handed to provisioning as given. */
  user_data?: string;
}

/** Addresses beyond the first of each family: billed monthly on top of the machine. */
export function extraAddresses(input: Pick<PlanInput, 'ipv4_count' | 'ipv6_count'>): { ipv4: number; ipv6: number } {
  return { ipv4: Math.max(0, (input.ipv4_count ?? 1) - 1), ipv6: Math.max(0, (input.ipv6_count ?? 1) - 1) };
}

/** The row both ways insert, but for its node (each way places the server its own way). */
export type PlannedServerRow = Pick<Server, 'id' | 'account_id' | 'name' | 'location_id' | 'os_version_id' | 'plan_id' | 'cpu_cores' | 'ram_mb'
  | 'storage_gb' | 'price_cents' | 'period_started_at' | 'next_billing_at' | 'source_snapshot_id' | 'discount_cents' | 'created_at'>;

export interface ServerCreatePlan {
  row: PlannedServerRow;
  spec: MachineSpec;
  /** The first cycle's charge (payServerCharge, or the one-statement write's ledger row). */
  quote: ServerQuote;
  /** The server.create operation to start: what provisioning needs and what a failure refunds. */
  provisioning: StartOperation<'server.create'>;
  /** This month's traffic as a server without a machine has it: no bytes yet, the plan's allowance. */
  traffic: TrafficSummary;
  /** The machine's record and addresses to reserve, but its platform id, the operation's token and the node (each way's own). */
  reservation: Omit<MachineReservation, 'id' | 'token' | 'node'>;
}

/**
 * The plan of creating server `id` for `at.accountId` at `at.now`: `machine` as resolved and
 * checked, `ipUnitPrices` the ipv4/ipv6 unit prices (read only when the input asks for extra
 * addresses: with none they are not used).
 */
export function planServerCreate(
  at: { accountId: string; now: Date }, id: string, input: PlanInput, machine: ResolvedMachine, ipUnitPrices: { ipv4: Cents; ipv6: Cents },
): ServerCreatePlan {
  const extra = extraAddresses(input);
  const ipPrices = extra.ipv4 + extra.ipv6 > 0 ? extraIpsPriceAt(extra.ipv4, extra.ipv6, ipUnitPrices) : { ipv4: 0, ipv6: 0, total: 0 };
  const priceCents = machine.basePriceCents + ipPrices.total;
  const quote = quoteAt({
    accountId: at.accountId, fromCents: 0, toCents: priceCents, description: `Server ${input.name} (${id}): first monthly cycle`, resource: `server/${id}`,
  }, machine.discountBp);
  return {
    row: {
      id,
      account_id: at.accountId,
      name: input.name,
      location_id: input.location_id,
      os_version_id: machine.osVersionId,
      plan_id: machine.plan?.id ?? null,
      cpu_cores: machine.spec.cpuCores,
      ram_mb: machine.spec.ramMb,
      storage_gb: machine.spec.storageGb,
      price_cents: priceCents,
      period_started_at: at.now,
      next_billing_at: addMonth(at.now),
      source_snapshot_id: machine.sourceSnapshotId,
      discount_cents: quote.discountDeltaCents,
      created_at: at.now,
    },
    spec: machine.spec,
    quote,
    provisioning: {
      type: 'server.create',
      resourceId: id,
      detail: 'Queued for provisioning',
      params: {
        password: input.password,
        extra_ipv4: extra.ipv4,
        extra_ipv6: extra.ipv6,
        ipv6: (input.ipv6_count ?? 1) > 0,
        ipv4_price_cents: ipPrices.ipv4,
        ipv6_price_cents: ipPrices.ipv6,
        charged_cents: quote.chargedCents,
        ssh_keys: machine.sshKeys,
        ...(input.user_data !== undefined ? { user_data: input.user_data } : {}),
      },
    },
    traffic: { in_bytes: null, out_bytes: null, quota_bytes: allowanceOf(machine.plan) },
    reservation: {
      locationId: input.location_id, hostname: input.name, ...machine.spec, osSlug: machine.osSlug, sshKeys: machine.sshKeys,
      v4: input.ipv4_count ?? 1, v6: input.ipv6_count ?? 1, primaryV6: (input.ipv6_count ?? 1) > 0,
      firewall: defaultFirewall((input.ipv6_count ?? 1) > 0),
    },
  };
}
