// Reverse DNS (PTR) of a server's addresses, primary or extra. The platform holds the record; we
// keep the name we set so that reads need no platform call. Setting asks the platform first and
// stores only what it accepted; a platform failure changes nothing (502). The PTR that Hostcloud's
// own DNS serves (core/dns/reverse.ts) is written with our record.
import { domainToASCII } from 'node:url';
import { listServerReverseDns, saveServerReverseDns } from '../../db/queries/reverse-dns.ts';
import type { Server } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { writePtr } from '../dns/reverse.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import type { Db } from '../types.ts';
import { requireActive } from './guards.ts';
import { type HeldAddress, heldAddresses, requireAddress } from './addresses.ts';
import { liveRead } from './platform-read.ts';
import { requireServer } from './read.ts';
import { checkHostname } from './rules.ts';

export interface ReverseDns {
  address: string;
  rdns: string | null;
}

/**
 * A PTR name: a fully qualified host name (at least two labels), an IDN as punycode, lower case,
 * without the root's trailing dot.
 */
export function checkReverseDnsName(text: string, field = 'rdns'): string {
  const trimmed = text.trim().replace(/\.$/, '');
  const ascii = trimmed === '' ? '' : domainToASCII(trimmed);
  if (ascii === '') throw invalid(field, 'must be a host name such as mail.example.com');
  checkHostname(ascii, field);
  if (!ascii.includes('.')) throw invalid(field, 'must be a fully qualified host name such as mail.example.com');
  return ascii;
}

/** Address → the name we hold for it, for every address of the server. */
export async function reverseDnsOf(db: Db, server: Pick<Server, 'id'>): Promise<Map<string, string>> {
  return new Map((await listServerReverseDns(db, server.id)).map((r) => [r.address, r.hostname]));
}

export async function getReverseDns(ctx: Ctx, serverId: string, address: string): Promise<ReverseDns> {
  const server = await requireServer(ctx, serverId);
  const held = await requireAddress(ctx.db, server, address);
  return { address: held.address, rdns: (await reverseDnsOf(ctx.db, server)).get(held.address) ?? null };
}

/** Sets the PTR name of an address (null removes it) at the platform, then here. */
export async function setReverseDns(ctx: Ctx, serverId: string, address: string, hostname: string | null): Promise<ReverseDns> {
  const name = hostname === null ? null : checkReverseDnsName(hostname);
  const server = await requireServer(ctx, serverId);
  const held = await requireAddress(ctx.db, server, address);
  requireActive(server);
  const ref = server.provider_ref;
  await liveRead(() => ctx.compute.setReverseDns(ref, held.address, name), ctx.providerTimeoutMs, 'reverse DNS');
  // Our record and the PTR Hostcloud serves (DNS_DRIVER) change together.
  await inTransaction(ctx.db, async (trx) => {
    await saveServerReverseDns(trx, server.id, held.address, name, ctx.now);
    await writePtr(trx, held.address, name, ctx.now);
  });
  return { address: held.address, rdns: name };
}

/** Every address the server holds, with the reverse DNS names we hold for them. */
export async function addressesWithReverseDns(ctx: Ctx, serverId: string): Promise<{ server: Server; held: HeldAddress[]; rdns: Map<string, string> }> {
  const server = await requireServer(ctx, serverId);
  const [held, rdns] = await Promise.all([heldAddresses(ctx.db, server), reverseDnsOf(ctx.db, server)]);
  return { server, held, rdns };
}
