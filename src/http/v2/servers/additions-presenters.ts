// v2 resources of the operations v1 had and v2 gained: reverse DNS of an
// address, a cancelled address, a deleted snapshot, a restore started.
import { Type } from '@sinclair/typebox';
import type { IpCancelResult } from '../../../core/servers/ip-cancel.ts';
import type { ReverseDns } from '../../../core/servers/reverse-dns.ts';
import { money } from '../../../core/money.ts';
import { MoneySchema, StringEnum, component, ref } from '../../schemas.ts';
import { OperationSchema, ServerParams, operationView } from './presenters.ts';

/** The note of the server operations this service adds to the Hosting Cloud API v2. */
export const ADDITION = '**Addition to the Hosting Cloud API v2** (v1 has this operation; v2 gains it).';

export const ServerAddressParams = Type.Object({
  ...ServerParams.properties,
  address: Type.String({ minLength: 1, maxLength: 64, description: 'An address of the server, IPv4 or IPv6 (any valid spelling).', examples: ['203.0.113.10'] }),
});

export const ServerSnapshotParams = Type.Object({
  ...ServerParams.properties,
  sid: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Snapshot id.', examples: [42] }),
});

export const ReverseDnsSchema = component('ReverseDns', Type.Object({
  address: Type.String({ examples: ['203.0.113.10'] }),
  rdns: Type.Union([Type.String({ examples: ['mail.example.com'] }), Type.Null()], { description: 'The PTR name; null when none is set.' }),
}, { description: 'The reverse DNS (PTR) record of an address.' }));

export const reverseDnsView = (r: ReverseDns) => ({ address: r.address, rdns: r.rdns });

export const IpCancelledSchema = component('IpCancelled', Type.Object({
  address: Type.String({ examples: ['203.0.113.42'] }),
  version: Type.Integer({ enum: [4, 6], examples: [4] }),
  status: StringEnum(['released'] as const),
  refund: ref(MoneySchema),
  server_monthly_price: ref(MoneySchema),
  balance: ref(MoneySchema),
  operation: ref(OperationSchema),
}, { description: 'A cancelled extra address: billing stopped, the unused hours of this cycle refunded; the `server.ip_release` operation returns it to the platform.' }));

export function ipCancelledView(r: IpCancelResult) {
  return {
    address: r.address, version: r.version, status: 'released' as const, refund: money(r.refundCents),
    server_monthly_price: money(r.monthlyPriceCents), balance: money(r.balanceCents), operation: operationView(r.operation),
  };
}

export const SnapshotDeletedSchema = component('SnapshotDeleteResult', Type.Object({
  id: Type.Integer({ examples: [42] }),
  status: StringEnum(['deleted'] as const),
  operation: ref(OperationSchema),
}, { description: 'A deleted snapshot: gone from the list and no longer billed; the `server.snapshot_delete` operation removes it from the platform.' }));

export const SnapshotRestoreSchema = component('SnapshotRestoreAccepted', Type.Object({
  operation: ref(OperationSchema),
}, { description: 'The `server.restore` operation rewriting the server\'s disk from the snapshot.' }));
