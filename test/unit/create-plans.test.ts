// The plans of the billable creates: what a server create and a domain registration write, decided
// once, from what was read, for both ways that write it (one statement, or a transaction). Pure:
// these tests need no database.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ResolvedMachine, extraAddresses, planServerCreate } from '../../src/core/servers/create-plan.ts';
import { defaultFirewall } from '../../src/db/default-firewall.ts';
import { planRegistration, type RegistrationOrder } from '../../src/core/domains/register.ts';
import type { TldPrice } from '../../src/db/schema.ts';

const at = { accountId: 'acc_1', now: new Date('2026-01-31T10:00:00Z') };

const cloudS: ResolvedMachine = {
  spec: { cpuCores: 1, ramMb: 1024, storageGb: 25 },
  plan: { id: 1, name: 'Cloud S', bandwidth_gb: 1000 },
  osVersionId: 3,
  osSlug: 'ubuntu-24.04',
  basePriceCents: 500,
  sourceSnapshotId: null,
  sshKeys: ['ssh-ed25519 AAAA test@example'],
  discountBp: 0,
};

test('a package server: its row, its first cycle charged at list price, its provisioning, its traffic as a new server has it', () => {
  const p = planServerCreate(at, 'srv_1', { name: 'web-1', location_id: 2, password: 'Str0ng!Passw0rd' }, cloudS, { ipv4: 300, ipv6: 100 });
  assert.deepEqual(p.row, {
    id: 'srv_1', account_id: 'acc_1', name: 'web-1', location_id: 2, os_version_id: 3, plan_id: 1, cpu_cores: 1, ram_mb: 1024, storage_gb: 25,
    price_cents: 500, period_started_at: at.now, next_billing_at: new Date('2026-02-28T10:00:00Z'), source_snapshot_id: null, discount_cents: 0,
    created_at: at.now,
  });
  assert.deepEqual(p.spec, cloudS.spec);
  assert.equal(p.quote.chargedCents, 500);
  assert.equal(p.quote.description, 'Server web-1 (srv_1): first monthly cycle, 5.00 USD');
  assert.equal(p.quote.resource, 'server/srv_1');
  assert.deepEqual(p.provisioning, {
    type: 'server.create', resourceId: 'srv_1', detail: 'Queued for provisioning',
    params: {
      password: 'Str0ng!Passw0rd', extra_ipv4: 0, extra_ipv6: 0, ipv6: true, ipv4_price_cents: 0, ipv6_price_cents: 0, charged_cents: 500,
      ssh_keys: ['ssh-ed25519 AAAA test@example'],
    },
  }, 'no extra address: the unit prices given are not used');
  assert.deepEqual(p.traffic, { in_bytes: null, out_bytes: null, quota_bytes: 1_000_000_000_000 });
  assert.deepEqual(p.reservation, {
    locationId: 2, hostname: 'web-1', cpuCores: 1, ramMb: 1024, storageGb: 25, osSlug: 'ubuntu-24.04', sshKeys: ['ssh-ed25519 AAAA test@example'],
    v4: 1, v6: 1, primaryV6: true, firewall: defaultFirewall(true),
  });
});

test('extra addresses are billed on top, one unit price each, and recorded for the refund of a failed create', () => {
  const custom: ResolvedMachine = { ...cloudS, plan: null, basePriceCents: 1234, spec: { cpuCores: 2, ramMb: 4096, storageGb: 80 } };
  const p = planServerCreate(at, 'srv_2', { name: 'web-2', location_id: 1, password: 'x', ipv4_count: 3, ipv6_count: 0, user_data: '#cloud-config\n' }, custom, { ipv4: 300, ipv6: 100 });
  assert.deepEqual(extraAddresses({ ipv4_count: 3, ipv6_count: 0 }), { ipv4: 2, ipv6: 0 });
  assert.equal(p.row.price_cents, 1234 + 2 * 300);
  assert.equal(p.row.plan_id, null);
  assert.equal(p.quote.chargedCents, 1834);
  assert.deepEqual(
    { ...p.provisioning.params, password: undefined, ssh_keys: undefined },
    {
      password: undefined, ssh_keys: undefined, extra_ipv4: 2, extra_ipv6: 0, ipv6: false, ipv4_price_cents: 300, ipv6_price_cents: 100, charged_cents: 1834,
      user_data: '#cloud-config\n',
    },
  );
  assert.deepEqual({ v4: p.reservation.v4, v6: p.reservation.v6, primaryV6: p.reservation.primaryV6 }, { v4: 3, v6: 0, primaryV6: false });
  assert.equal(p.traffic.quota_bytes, null, 'a custom server has no plan allowance');
});

test('a reseller\'s discount is held by the row and named in the charge', () => {
  const p = planServerCreate(at, 'srv_3', { name: 'web-3', location_id: 1, password: 'x' }, { ...cloudS, basePriceCents: 15_000, discountBp: 1000 }, { ipv4: 0, ipv6: 0 });
  assert.equal(p.row.price_cents, 15_000, 'the list price');
  assert.equal(p.row.discount_cents, 1500);
  assert.equal(p.quote.chargedCents, 13_500);
  assert.equal(p.provisioning.params.charged_cents, 13_500, 'a failure refunds what was charged');
  assert.equal(p.quote.description, 'Server web-3 (srv_3): first monthly cycle, 150.00 USD less 10 % reseller discount = 135.00 USD');
});

test('a domain registration: the pending domain, its charge and the operation that registers it', () => {
  const price = { tld: 'com', register_cents: 1299 } as TldPrice;
  const order: RegistrationOrder = {
    name: 'shop.com', price, years: 2, nameservers: ['ns1.example.net', 'ns2.example.net'], whoisPrivacy: true, autoRenew: false, contact: null, cents: 2598,
  };
  const p = planRegistration({ ...at, registrar: { name: 'simulated' } }, order, { id: 'dom_1', serviceId: 'svc_1' });
  assert.deepEqual(p.row, {
    id: 'dom_1', account_id: 'acc_1', name: 'shop.com', tld: 'com', status: 'pending', auto_renew: false, transfer_lock: true, whois_privacy: true,
    registration_years: 2, nameservers: ['ns1.example.net', 'ns2.example.net'], service_id: 'svc_1', registrar: 'simulated', provider_ref: null,
    auth_code: null, registered_at: null, expires_at: null, created_at: at.now, updated_at: at.now,
  });
  assert.deepEqual(p.charge, { cents: 2598, description: 'Domain shop.com (svc_1): registration for 2 years, 25.98 USD', resource: 'domain/dom_1' });
  assert.deepEqual(p.operation, {
    type: 'domain.register', resourceId: 'dom_1', detail: 'Queued for registration of shop.com', params: { charged_cents: 2598, contact: null },
  });
});
