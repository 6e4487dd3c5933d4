// v1 field shapes of VDC, tickets, sub-users, balance and the catalog: pure mappings from the core's
// values, checked field by field against the v1 resource table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PoolView } from '../../src/core/vdc/pool.ts';
import type { VmView } from '../../src/core/vdc/read.ts';
import type { Plan, SubUser, Transaction, VdcSnapshot, VdcVm } from '../../src/db/schema.ts';
import { v1Balance, v1Transaction } from '../../src/http/v1/billing/views.ts';
import { v1Location, v1OperatingSystem, v1Package } from '../../src/http/v1/catalog/views.ts';
import { v1money as v1Amount } from '../../src/http/v1/reply.ts';
import { v1SubUser, v1SubUserDetail } from '../../src/http/v1/sub-users/views.ts';
import { v1TicketDetail, v1TicketListItem } from '../../src/http/v1/tickets/views.ts';
import { v1ResourcesView, v1VmDetail, v1VmListItem, v1VmSnapshot, v1VmUsage } from '../../src/http/v1/vdc/views.ts';

const at = new Date('2026-11-23T10:00:00.123Z');

test('money is a number with the decimal the cents make', () => {
  assert.equal(v1Amount(1999), 19.99);
  assert.equal(JSON.stringify(v1Amount(1)), '0.01');
  assert.equal(JSON.stringify(v1Amount(123456789)), '1234567.89');
  assert.equal(v1Amount(-500), -5);
});

test('balance: numbers, in = deposits and refunds, out = withdrawals', () => {
  assert.deepEqual(v1Balance({ balanceCents: 7550, inCents: 12550, outCents: 5000 }), { balance: 75.5, total_deposits: 125.5, total_withdrawals: 50 });
});

test('transactions: withdrawals negative, refunds read as deposits with their description', () => {
  const row = (type: Transaction['type'], cents: number): Transaction => ({
    id: 9, account_id: 'acc_x', type, amount_cents: cents, balance_after_cents: 0, description: `${type} thing`, status: 'completed', created_at: at,
  });
  assert.deepEqual(v1Transaction(row('withdraw', 1500)), {
    id: 9, type: 'withdraw', amount: -15, status: 'completed', description: 'withdraw thing', created_at: '2026-11-23T10:00:00Z',
  });
  assert.deepEqual(v1Transaction(row('refund', 250)), {
    id: 9, type: 'deposit', amount: 2.5, status: 'completed', description: 'refund thing', created_at: '2026-11-23T10:00:00Z',
  });
  assert.equal(v1Transaction(row('deposit', 10000)).amount, 100);
});

const plan: Plan = { id: 2, name: 'Cloud M', cpu_cores: 2, ram_mb: 4096, storage_gb: 80, bandwidth_gb: 2000, price_cents: 1505, available: true };

test('package: every v1 field; reseller prices null for a customer, discounted (rounded down) for a reseller', () => {
  assert.deepEqual(v1Package(plan, { isReseller: false, discountBp: 0 }), {
    id: 2, name: 'Cloud M', cpu_cores: 2, ram_mb: 4096, storage_gb: 80, bandwidth_gb: 2000, monthly_price: 15.05,
    reseller_monthly_price: null, reseller_discount_percentage: null,
  });
  const r = v1Package(plan, { isReseller: true, discountBp: 1000 });
  // 10 % of 15.05 is 1.505, rounded down to 1.50: the reseller pays 13.55, as a server charge would.
  assert.equal(r.reseller_monthly_price, 13.55);
  assert.equal(r.reseller_discount_percentage, 10);
  const none = v1Package(plan, { isReseller: true, discountBp: 0 });
  assert.equal(none.reseller_monthly_price, 15.05);
  assert.equal(none.reseller_discount_percentage, 0);
});

test('operating systems: families with versions[] of {id, name}; locations with status', () => {
  const os = (id: number, family: string, version: string) => ({ id, family, version, slug: `${family}-${version}`.toLowerCase(), available: true, image: null });
  assert.deepEqual(v1OperatingSystem({ id: 1, name: 'Ubuntu', versions: [os(1, 'Ubuntu', '24.04'), os(2, 'Ubuntu', '22.04')] }), {
    id: 1, name: 'Ubuntu', versions: [{ id: 1, name: '24.04' }, { id: 2, name: '22.04' }],
  });
  assert.deepEqual(v1Location({ id: 1, name: 'Frankfurt', code: 'fra1', country: 'DE', provider: 'primary', available: true }), {
    id: 1, name: 'Frankfurt', code: 'fra1', status: 'active',
  });
});

const pool: PoolView = {
  accountId: 'acc_x', hasPool: true,
  total: { cpu: 16, ram_mb: 32768, storage_gb: 500, ipv4: 4, ipv6: 4, bandwidth_mbit: 1000 },
  used: { cpu: 2, ram_mb: 4096, storage_gb: 80, ipv4: 1, ipv6: 1, bandwidth_mbit: 0 },
  available: { cpu: 14, ram_mb: 28672, storage_gb: 420, ipv4: 3, ipv6: 3, bandwidth_mbit: 1000 },
  monthlyPriceCents: null, updatedAt: at,
};

test('VDC resources: totals, usage and available in v1 names, RAM in GB', () => {
  assert.deepEqual(v1ResourcesView(pool), {
    resources: { cpu_cores: 16, ram_gb: 32, disk_gb: 500, ipv4_count: 4, ipv6_count: 4, bandwidth_mbit: 1000 },
    usage: { cpu_used: 2, ram_used_gb: 4, disk_used_gb: 80, ipv4_used: 1, ipv6_used: 1, bandwidth_used_mbit: 0 },
    available: { cpu_available: 14, ram_available_gb: 28, disk_available_gb: 420, ipv4_available: 3, ipv6_available: 3, bandwidth_available_mbit: 1000 },
  });
  // A pool set in MB that is not whole GB: two decimals.
  assert.equal(v1ResourcesView({ ...pool, total: { ...pool.total, ram_mb: 1500 } }).resources.ram_gb, 1.46);
});

const vm = {
  id: 'vm_abc', account_id: 'acc_x', name: 'db-1', status: 'active', power_state: 'running', primary_ip: '10.0.0.5', primary_ipv6: null,
  cpu_cores: 2, ram_mb: 4096, storage_gb: 80, created_at: at,
} as unknown as VdcVm;
const view = (over: Partial<VmView> = {}): VmView => ({
  vm, os: 'ubuntu-24.04', power: 'running', specs: { cpuCores: 2, ramMb: 4096, storageGb: 80 }, osLabel: { family: 'Ubuntu', version: '24.04' }, ...over,
});

test('VM list item and detail: v1 names, GB, one status (stopped when powered off)', () => {
  assert.deepEqual(v1VmListItem(view()), {
    unique_id: 'vm_abc', vm_name: 'db-1', cpu_cores: 2, ram_gb: 4, disk_gb: 80, primary_ip: '10.0.0.5', status: 'active', os_name: 'Ubuntu', os_version: '24.04',
  });
  assert.deepEqual(v1VmDetail(view({ power: 'stopped' })), {
    vm_id: 'vm_abc', vm_name: 'db-1', cpu_cores: 2, ram_gb: 4, disk_gb: 80, status: 'stopped', primary_ip: '10.0.0.5',
  });
  assert.equal(v1VmDetail(view({ vm: { ...vm, status: 'pending' } as VdcVm, power: 'provisioning' })).status, 'pending');
  assert.equal(v1VmListItem(view({ osLabel: null })).os_name, null);
});

test('VM usage: load average from the CPU share and vCPUs, memory MB, disk GB', () => {
  assert.deepEqual(v1VmUsage({ cpuPct: 50, memoryPct: 25, diskPct: 10, memoryUsedMb: 1024, diskUsedGb: 8, cpuCores: 4, ramMb: 4096, storageGb: 80, sampledAt: at }), {
    usage: { cpu: { load_average: 2 }, memory: { used_mb: 1024 }, disk: { used_gb: 8 } },
  });
});

test('VM snapshots: available is completed', () => {
  const snap = (status: string) => ({ id: 4, name: 'pre', status, size_gb: null, created_at: at }) as unknown as VdcSnapshot;
  assert.deepEqual(v1VmSnapshot(snap('available')), { id: 4, name: 'pre', status: 'completed' });
  assert.equal(v1VmSnapshot(snap('creating')).status, 'creating');
});

test('tickets: department by name in lists; the thread with author and time', () => {
  const ticket = { id: '482913', subject: 'No boot', status: 'open', department_id: 1, department_name: 'Technical Support' } as never;
  assert.deepEqual(v1TicketListItem(ticket), { id: '482913', subject: 'No boot', status: 'open', department: 'Technical Support' });
  assert.equal(v1TicketListItem({ ...(ticket as object), department_id: null } as never).department, null);
  const detail = v1TicketDetail({ ticket, messages: [{ id: 3, ticket_id: '482913', author: 'customer', internal: false, body: 'hello there', created_at: at }] } as never);
  assert.deepEqual(detail, { id: '482913', subject: 'No boot', status: 'open', messages: [{ id: 3, message: 'hello there', author: 'customer', created_at: '2026-11-23T10:00:00Z' }] });
});

test('sub-users: five fields, the detail adds permissions in scope order', () => {
  const s = { id: 7, email: 'g@example.com', first_name: 'Grace', last_name: 'Hopper', status: 'pending', permissions: ['tickets:write', 'servers:read'], phone: null } as unknown as SubUser;
  assert.deepEqual(v1SubUser(s), { id: 7, email: 'g@example.com', first_name: 'Grace', last_name: 'Hopper', status: 'pending' });
  assert.deepEqual(v1SubUserDetail(s).permissions, ['servers:read', 'tickets:write']);
});
