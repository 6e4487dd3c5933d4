// The fault switches of the simulated providers: one sim_settings row per provider,
// 'fault:<provider>' (compute, registrar, hosting). A missing row is a switch that is off.
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../connection.ts';
import { precompile } from '../precompiled.ts';
import type { SimFault, SimFaultMode, SimVm } from '../schema.ts';
import { withoutCompanion } from '../transaction.ts';

const NO_FAULT: SimFault = { mode: 'none', remaining: null, calls: [] };

const rowName = (provider: string) => `fault:${provider}`;

export async function findFault(db: Db, provider: string): Promise<SimFault> {
  const row = await db.selectFrom('sim_settings').select('value').where('name', '=', rowName(provider)).executeTakeFirst();
  return row ? (row.value as SimFault) : NO_FAULT;
}

export async function saveFault(db: Db, provider: string, fault: SimFault): Promise<SimFault> {
  const value = JSON.stringify(fault);
  const row = await db.insertInto('sim_settings').values({ name: rowName(provider), value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .returning('value').executeTakeFirstOrThrow();
  return row.value as SimFault;
}

/**
 * Spends one failure of a provider's switch on a call of `call`: the mode the call must fail with,
 * or null. One UPDATE decides and decrements, so N parallel calls against `remaining: N` fail
 * exactly N times. A spent switch keeps its mode with `remaining: 0` (and fails nothing).
 */
export async function consumeFault(db: Db, provider: string, call: string): Promise<SimFaultMode | null> {
  // The switch is the simulated provider's state, spent whatever becomes of the work that called it.
  const r = await withoutCompanion(() => sql<{ mode: SimFaultMode }>`${faultConsumption(provider, call)}`.execute(db));
  return r.rows[0]?.mode ?? null;
}

/**
 * consumeFault('compute', 'status') and the machine's row: a detail read asks the simulated
 * platform for a machine's state on every request, and the fault switch is almost always off. So
 * the switch is only read alongside the machine (one round trip, no write); only when it is on for
 * `status` does a second statement spend it, and that UPDATE alone decides, as in consumeFault
 * (N parallel calls against `remaining: N` still fail exactly N times). A data-modifying CTE in
 * every read cost the database a sixth of its work per detail (the UPDATE's executor set-up and
 * locks), for a switch that is off.
 */
export type VmState = Pick<SimVm, 'power' | 'cpu_cores' | 'ram_mb' | 'storage_gb' | 'os_slug' | 'destroyed_at' | 'node'> & {
  /** Its node's endpoint (null: no node, or a simulated one), which says which driver serves it. */
  node_endpoint: string | null;
};

export async function consumeStatusFaultAndFindVm(db: Db, ref: string): Promise<{ mode: SimFaultMode | null; vm: VmState | undefined }> {
  const { armed, found, ...vm } = (await statusRead.executeTakeFirst(db, { ref }))!;
  return { mode: armed ? await consumeFault(db, 'compute', 'status') : null, vm: found ? vm : undefined };
}

// Precompiled: every GET /v2/servers/{id} of a live server runs it (see precompiled.ts).
const statusRead = precompile((_db: Db, p: { ref: string }) => sql<VmState & { armed: boolean; found: boolean }>`
    SELECT EXISTS (SELECT 1 FROM sim_settings s WHERE ${faultApplies(sql`s`, 'compute', 'status')}) AS armed, v.id IS NOT NULL AS found,
           v.power, v.cpu_cores, v.ram_mb, v.storage_gb, v.os_slug, v.destroyed_at, v.node, n.endpoint AS node_endpoint
    FROM (SELECT 1) one LEFT JOIN sim_vms v ON v.id = ${p.ref} LEFT JOIN nodes n ON n.name = v.node`);

/**
 * consumeFault('registrar', 'check') and which of `names` the registry holds, in one round trip:
 * every registration asks the registry first, and the fault switch is almost always off.
 */
export async function consumeCheckFaultAndFindRegistryNames(db: Db, names: string[]): Promise<{ mode: SimFaultMode | null; taken: string[] }> {
  const r = await withoutCompanion(() => sql<{ mode: SimFaultMode | null; taken: string[] }>`
    WITH f AS (${faultConsumption('registrar', 'check')})
    SELECT (SELECT mode FROM f) AS mode,
           ARRAY(SELECT name FROM sim_registry_domains WHERE name = ANY(${names}::text[])) AS taken
  `.execute(db));
  return r.rows[0]!;
}

/** Whether the switch row `s` of `provider` would fail a call of `call` (what faultConsumption spends). */
function faultApplies(s: RawBuilder<unknown>, provider: string, call: string) {
  return sql<boolean>`${s}.name = ${rowName(provider)}
      AND ${s}.value->>'mode' <> 'none'
      AND (jsonb_array_length(${s}.value->'calls') = 0 OR ${s}.value->'calls' @> jsonb_build_array(${call}::text))
      AND (${s}.value->>'remaining' IS NULL OR (${s}.value->>'remaining')::int > 0)`;
}

/** The statement of consumeFault, to spend a fault within a larger statement (as a CTE); it returns the mode spent, if any. */
export function faultConsumption(provider: string, call: string) {
  return sql<{ mode: SimFaultMode }>`
    UPDATE sim_settings s
    SET value = CASE WHEN value->>'remaining' IS NULL THEN value
                     ELSE jsonb_set(value, '{remaining}', to_jsonb((value->>'remaining')::int - 1)) END
    WHERE ${faultApplies(sql`s`, provider, call)}
    RETURNING value->>'mode' AS mode`;
}
