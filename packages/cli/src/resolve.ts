// Names and slugs where the API wants ids: `--location fra1`, `--plan "Cloud S"`, `--os
// debian-12`, `hc server get web-1.example.com`. A number is taken as an id as before; anything
// else is looked up (case-insensitive, exact). A name that matches nothing or more than one thing
// is a usage error (exit 2) that lists what there is, so the next try can be right.
import { AmbiguousNameError, type Hostcloud, type Server } from '@hostcloud/sdk';
import { UsageError } from './errors.js';

interface Candidate {
  id: number;
  /** What the user may type for it, besides its id. */
  keys: string[];
  label: string;
}

async function collectAll<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

function pick(kind: string, listCommand: string, value: string, candidates: Candidate[]): number {
  if (/^\d+$/.test(value)) {
    const n = Number(value);
    if (n < 1) throw new UsageError(`--${kind} must be 1 or more, a name or a slug`);
    return n;
  }
  const wanted = value.trim().toLowerCase();
  const found = candidates.filter((c) => c.keys.some((k) => k.toLowerCase() === wanted));
  if (found.length === 1) return found[0]!.id;
  const shown = (found.length ? found : candidates).map((c) => `  ${c.id}  ${c.label}`).join('\n');
  if (found.length > 1) throw new UsageError(`--${kind} "${value}" matches ${found.length}: give an id\n${shown}`);
  throw new UsageError(`no ${kind} "${value}" (${listCommand} lists them)${shown ? `\n${shown}` : ''}`);
}

/** A location id from an id, its code (`fra1`) or its name. */
export async function locationId(hc: Hostcloud, value: string): Promise<number> {
  if (/^\d+$/.test(value)) return pick('location', 'hc location list', value, []);
  const all = await collectAll(hc.catalog.locations({ per_page: 100 }));
  return pick('location', 'hc location list', value, all.map((l) => ({ id: l.id, keys: [l.code, l.name], label: `${l.code}  ${l.name}` })));
}

/** A plan id from an id or its name (`Cloud S`). */
export async function planId(hc: Hostcloud, value: string): Promise<number> {
  if (/^\d+$/.test(value)) return pick('plan', 'hc plan list', value, []);
  const all = await collectAll(hc.catalog.plans({ per_page: 100 }));
  return pick('plan', 'hc plan list', value, all.map((p) => ({ id: p.id, keys: [p.name], label: p.name })));
}

/** An OS version id from an id, its slug (`debian-12`) or its name. */
export async function osId(hc: Hostcloud, value: string): Promise<number> {
  if (/^\d+$/.test(value)) return pick('os', 'hc os list', value, []);
  const all = await collectAll(hc.catalog.operatingSystems({ per_page: 100 }));
  return pick('os', 'hc os list', value, all.map((o) => ({ id: o.id, keys: [o.slug, o.name], label: `${o.slug}  ${o.name}` })));
}

/** An SSH key id from an id or its name. */
export async function sshKeyId(hc: Hostcloud, value: string): Promise<number> {
  if (/^\d+$/.test(value)) return pick('ssh-key', 'hc ssh-key list', value, []);
  const all = await collectAll(hc.sshKeys.list({ per_page: 100 }));
  return pick('ssh-key', 'hc ssh-key list', value, all.map((k) => ({ id: k.id, keys: [k.name], label: k.name })));
}

/** A server by id or name; several of that name → exit 2 listing them. */
export async function findServer(hc: Hostcloud, value: string): Promise<Server> {
  try {
    return await hc.servers.find(value);
  } catch (e) {
    if (e instanceof AmbiguousNameError) {
      throw new UsageError(`${e.matches.length} servers are named "${value}": give an id\n${e.matches.map((m) => `  ${m.id}  ${m.name}`).join('\n')}`);
    }
    throw e;
  }
}

/** A server's id from an id (taken as it is, no call) or a name (looked up). */
export async function serverId(hc: Hostcloud, value: string): Promise<string> {
  if (/^srv_[A-Za-z0-9]+$/.test(value)) return value;
  return (await findServer(hc, value)).id;
}
