// One sample per event type for the reference (its event catalogue and the document's `webhooks`):
// built from facts as the database stores them, through the very presenters deliveries use, so a
// sample is what a receiver gets and cannot drift from it. The document's linter checks each
// against the Event schema.
import { EVENT_CATALOGUE, EVENT_TYPES, type EventType } from '../../../core/events/catalogue.ts';
import type { EventRow } from '../../../db/schema.ts';
import { eventView } from './presenters.ts';

const AT = '2026-11-22T08:30:00.000Z';
const LATER = '2026-11-22T08:31:04.000Z';
const ACCOUNT = 'acc_3kT9wQ2mZx7Lp4Rb';
const SERVER = 'srv_8fJ2kLmN4pQ7rS1t';

type Facts = Record<string, unknown>;

const server = (status: string, power: string, extra: Facts = {}): Facts => ({
  id: SERVER, account_id: ACCOUNT, name: 'web-1.example.com', status, power_state: power, location_id: 1, os_version_id: 1, plan_id: 2,
  cpu_cores: 2, ram_mb: 4096, storage_gb: 80, price_cents: 1500, cycle: 'monthly', period_started_at: AT, next_billing_at: '2026-12-22T08:30:00.000Z',
  network: {
    ipv4: { address: '203.0.113.23', gateway: '203.0.113.1', netmask: '255.255.255.0', subnet: '203.0.113.0/24' },
    ipv6: { address: '2001:db8:1::17', gateway: '2001:db8:1::1', subnet: '2001:db8:1::/64' },
  },
  created_at: AT, updated_at: LATER, deleted_at: null, plan_name: 'Cloud M', os_slug: 'ubuntu-24.04', extra_ips: [], ...extra,
});

const dnsZone = (records: number): Facts => ({
  id: 'dnz_4Fq8sLk2Xw9Zp3Nb', account_id: ACCOUNT, name: 'example.com', kind: 'forward', ip_pool_id: null, nameservers: ['ns1.hostcloud.test', 'ns2.hostcloud.test'],
  serial: 2026112200 + records - 3, synced_at: null, created_at: AT, updated_at: AT, records_count: records,
});

const operation = (type: string, status: string, resource: [string, string], detail: string): Facts => ({
  id: 'op_4Kq9vX2mLp8RtY1z', account_id: ACCOUNT, type, status, resource_type: resource[0], resource_id: resource[1],
  progress_pct: status === 'completed' ? 100 : 40, detail, attempts: 1, created_at: AT, updated_at: LATER, finished_at: LATER,
});

const vm = (deleted: boolean): Facts => ({
  id: 'vm_7Rk2pQ9sLm4Xw1Zt', account_id: ACCOUNT, name: 'db-1.example.com', status: 'active', power_state: 'running', location_id: 1, os_version_id: 1,
  cpu_cores: 2, ram_mb: 4096, storage_gb: 40, primary_ip: '203.0.113.40', primary_ipv6: null, created_at: AT, updated_at: LATER,
  deleted_at: deleted ? LATER : null, os_slug: 'ubuntu-24.04', os_family: 'Ubuntu', os_version: '24.04', location_provider: 'primary',
});

const domain = (status: string, expires: string): Facts => ({
  id: 'dom_3kPq9vX2mLp8RtY1', account_id: ACCOUNT, name: 'example.com', tld: 'com', status, auto_renew: true, transfer_lock: true, whois_privacy: false,
  registration_years: 1, nameservers: ['ns1.hostcloud.example', 'ns2.hostcloud.example'], service_id: '1048576', registrar: 'hostcloud',
  registered_at: '2025-11-22T08:30:00.000Z', expires_at: expires, created_at: '2025-11-22T08:30:00.000Z', updated_at: LATER,
  price: { tld: 'com', register_cents: 1199, renewal_cents: 1399, transfer_cents: 1199 },
});

const hosting = (status: string): Facts => ({
  id: 'wh_5Gq8nWc2Lz6Tr1Ya', account_id: ACCOUNT, domain: 'example.org', package_id: 1, status, billing_cycle: 'monthly', price_cents: 399,
  last_charge_cents: 399, period_started_at: AT, next_billing_at: '2026-12-22T08:30:00.000Z', panel_ref: 'panel-1', username: 'exampleorg',
  server_hostname: 'web1.fra1.panel.hostcloud.example', cancel_reason: null, cancelled_at: null, created_at: AT, updated_at: LATER,
  package_name: 'Web Starter', quota_mb: 10240, max_domains: 1,
});

const transaction = (type: string, cents: number, description: string): Facts => ({
  id: 1042, account_id: ACCOUNT, type, amount_cents: cents, balance_after_cents: 8500, description, status: 'completed', created_at: AT,
});

const ticket = (status: string): Facts => ({
  id: '482913', account_id: ACCOUNT, subject: 'Console shows no bootable device', department_id: 1, priority: 'medium', status,
  created_at: AT, updated_at: LATER, closed_at: status === 'closed' ? LATER : null, deleted_at: null, department_name: 'Technical Support',
});

const SAMPLES: Record<EventType, [resourceType: string, resourceId: string, facts: Facts]> = {
  'operation.completed': ['operation', 'op_4Kq9vX2mLp8RtY1z', operation('server.create', 'completed', ['server', SERVER], 'Server provisioned')],
  'operation.failed': ['operation', 'op_4Kq9vX2mLp8RtY1z', operation('server.resize', 'failed', ['server', SERVER], 'No capacity: no node in Frankfurt has room for 8 cores')],
  'server.created': ['server', SERVER, server('active', 'running')],
  'server.deleted': ['server', SERVER, server('active', 'running', { deleted_at: LATER })],
  'server.suspended': ['server', SERVER, server('suspended', 'running')],
  'server.resumed': ['server', SERVER, server('active', 'stopped')],
  'server.cancelled': ['server', SERVER, server('cancelled', 'stopped')],
  'vdc_vm.created': ['vdc_vm', 'vm_7Rk2pQ9sLm4Xw1Zt', vm(false)],
  'vdc_vm.deleted': ['vdc_vm', 'vm_7Rk2pQ9sLm4Xw1Zt', vm(true)],
  'domain.registered': ['domain', 'dom_3kPq9vX2mLp8RtY1', domain('active', '2027-11-22T08:30:00.000Z')],
  'domain.transferred': ['domain', 'dom_3kPq9vX2mLp8RtY1', domain('active', '2027-11-22T08:30:00.000Z')],
  'domain.renewed': ['domain', 'dom_3kPq9vX2mLp8RtY1', domain('active', '2028-11-22T08:30:00.000Z')],
  'domain.expiring': ['domain', 'dom_3kPq9vX2mLp8RtY1', domain('active', '2026-12-22T08:30:00.000Z')],
  'domain.expired': ['domain', 'dom_3kPq9vX2mLp8RtY1', domain('expired', AT)],
  'web_hosting.created': ['web_hosting', 'wh_5Gq8nWc2Lz6Tr1Ya', hosting('active')],
  'web_hosting.suspended': ['web_hosting', 'wh_5Gq8nWc2Lz6Tr1Ya', hosting('suspended')],
  'web_hosting.resumed': ['web_hosting', 'wh_5Gq8nWc2Lz6Tr1Ya', hosting('active')],
  'web_hosting.cancelled': ['web_hosting', 'wh_5Gq8nWc2Lz6Tr1Ya', hosting('cancelled')],
  'billing.deposit': ['transaction', '1042', transaction('deposit', 10000, 'Deposit')],
  'billing.charge_succeeded': ['transaction', '1042', transaction('withdraw', 1500, `Server web-1.example.com (${SERVER}): first monthly cycle, 15.00 USD`)],
  'billing.refunded': ['transaction', '1042', transaction('refund', 1210, `Refund: server web-1.example.com (${SERVER}) deleted, 580 of 720 hours unused, 12.10 USD`)],
  'billing.charge_failed': ['billing_charge', '4711', {
    id: 4711, account_id: ACCOUNT, resource_type: 'server', resource_id: SERVER, period_start: '2026-12-22T08:30:00.000Z', period_end: '2027-01-22T08:30:00.000Z',
    amount_cents: 1500, description: `Server web-1.example.com (${SERVER}): monthly cycle 2026-12-22 → 2027-01-22`, status: 'due', transaction_id: null,
    due_since: '2026-12-22T08:30:00.000Z', attempts: 1, last_error: 'Balance 3.00 USD is less than the 15.00 USD this costs', paid_at: null, created_at: AT,
  }],
  'ticket.opened': ['ticket', '482913', ticket('open')],
  'ticket.answered': ['ticket', '482913', ticket('answered')],
  'ticket.closed': ['ticket', '482913', ticket('closed')],
  'webhook.ping': ['webhook', 'whk_5Hq2sLk9Xw3Zp5Nb', {
    id: 'whk_5Hq2sLk9Xw3Zp5Nb', account_id: ACCOUNT, url: 'https://hooks.example.com/hostcloud', events: ['*'], description: 'Provisioning pipeline',
    enabled: true, previous_secret_expires_at: null, disabled_reason: null, failing_since: null, created_at: AT, updated_at: AT,
  }],
  'dns_zone.created': ['dns_zone', 'dnz_4Fq8sLk2Xw9Zp3Nb', dnsZone(3)],
  'dns_zone.deleted': ['dns_zone', 'dnz_4Fq8sLk2Xw9Zp3Nb', dnsZone(9)],
};

/** The sample delivery (the event as a receiver gets it) of `type`. */
export function sampleEvent(type: EventType) {
  const [resourceType, resourceId, facts] = SAMPLES[type];
  const row: EventRow = { id: 'evt_2Nf8sKq4Lm7Xp1Zr', seq: 1, account_id: ACCOUNT, type, resource_type: resourceType, resource_id: resourceId, data: facts, created_at: new Date(LATER) };
  return eventView(row);
}

export function eventSamples() {
  return EVENT_TYPES.map((type) => ({ type, when: EVENT_CATALOGUE[type].when, sample: sampleEvent(type) }));
}
