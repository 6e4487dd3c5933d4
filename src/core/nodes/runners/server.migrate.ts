// server.migrate (and, through migrationRunner, vdc_vm.migrate), run: a live move keeps the machine running; a cold one stops
// it, moves it and starts it again if it was running. Every platform call carries a token derived
// from the operation id, so a run repeated after a lost worker moves the machine once. The row
// changes only when the move is done: until then the machine is on its source node, and a final
// failure leaves it there (the target's hold is released, the machine restarted if a cold move
// stopped it).
import { nodeNameOf, renumberServerIps, setServerPlacement } from '../../../db/queries/nodes.ts';
import { findServerById } from '../../../db/queries/servers.ts';
import type { PowerState } from '../../../db/schema.ts';
import type { Machine } from '../../../providers/compute/types.ts';
import type { OperationOf, RunContext, Runner } from '../../operations/runner.ts';
import type { Db } from '../../types.ts';

export const MIGRATE_MODES = ['live', 'cold'] as const;
export type MigrateMode = (typeof MIGRATE_MODES)[number];

/** What a migration's runner needs, kept in the operation's params. */
export interface MigrateParams {
  mode: MigrateMode;
  from_node_id: number | null;
  to_node_id: number;
  from_location_id: number;
  to_location_id: number;
  /** What the server was doing; it is doing the same afterwards (or after a failure). */
  power_before: PowerState;
  /** A member of the node (an LXD cluster) the machine moves to, staying on the node. */
  to_member?: string;
}

/** Where a kind of machine keeps its placement. */
export interface Placed {
  noun: string;
  /** The row's platform ref and the node it is moving to; undefined when it is gone. */
  find(db: Db, id: string): Promise<{ ref: string | null; migrationNodeId: number | null } | undefined>;
  complete(trx: Db, id: string, p: MigrateParams, power: PowerState, machine: Machine): Promise<void>;
  restore(trx: Db, id: string, p: MigrateParams): Promise<void>;
}

const stopsFirst = (p: MigrateParams) => p.mode === 'cold' && p.power_before === 'running';

export function migrationRunner(kind: Placed): Runner<MigrateParams> {
  return {
    async run(rc, op) {
      const p = op.params;
      const row = await kind.find(rc.db, op.resource_id);
      if (!row?.ref || row.migrationNodeId !== p.to_node_id) return { detail: `Nothing to move: the ${kind.noun} is gone or no longer migrating` };
      const ref = row.ref;
      const node = (await nodeNameOf(rc.db, p.to_node_id))!;
      // A stopped machine has no memory to copy: it moves offline whatever the mode.
      const live = p.mode === 'live' && p.power_before === 'running';
      const part = (from: number, to: number) => (pct: number, detail: string) => rc.progress(from + (pct * (to - from)) / 100, detail);
      if (stopsFirst(p)) await rc.compute.power(ref, 'stop', `${op.id}:stop`, part(0, 20));
      const target = { node, locationId: p.to_location_id, live, ...(p.to_member ? { member: p.to_member } : {}) };
      const machine = await rc.compute.migrate(ref, target, op.id, part(20, 85));
      let power: PowerState = p.power_before === 'running' ? 'running' : 'stopped';
      const where = p.to_member ? `to member ${p.to_member} of its node` : 'to another node';
      let detail = `${kind.noun} moved ${where} (${live ? 'live' : 'cold'} migration)`;
      if (stopsFirst(p)) {
        // The move is done: a start that fails must not undo it; the machine is stopped and says so.
        power = await rc.compute.power(ref, 'start', `${op.id}:start`, part(85, 99)).catch((e: unknown) => {
          detail += `, but it did not start again (${e instanceof Error ? e.message : String(e)}); start it`;
          return 'stopped' as const;
        });
      }
      const moved = p.to_location_id !== p.from_location_id;
      return {
        detail: moved ? `${detail}; it has new addresses in location ${p.to_location_id}` : detail,
        apply: (trx) => kind.complete(trx, op.resource_id, p, power, machine),
      };
    },

    async compensate(trx, op) {
      const p = op.params;
      const row = await kind.find(trx, op.resource_id);
      if (row?.migrationNodeId === p.to_node_id) await kind.restore(trx, op.resource_id, p);
    },

    async afterFailure(rc: RunContext, op: OperationOf<MigrateParams>) {
      const p = op.params;
      if (!stopsFirst(p)) return;
      const row = await kind.find(rc.db, op.resource_id);
      if (row?.ref) await rc.compute.power(row.ref, 'start', `${op.id}:restore`, async () => {});
    },
  };
}

export const serverMigrateRunner = migrationRunner({
  noun: 'Server',
  async find(db, id) {
    const s = await findServerById(db, id);
    return s && !s.deleted_at ? { ref: s.provider_ref, migrationNodeId: s.migration_node_id } : undefined;
  },
  async complete(trx, id, p, power, machine) {
    const moved = p.to_location_id !== p.from_location_id;
    await setServerPlacement(trx, id, {
      node_id: p.to_node_id, migration_node_id: null, power_state: power,
      ...(moved ? { location_id: p.to_location_id, network: machine.network } : {}),
    });
    if (moved) await renumberServerIps(trx, id, machine.extraIps);
  },
  restore: (trx, id, p) => setServerPlacement(trx, id, { migration_node_id: null, power_state: p.power_before }),
});
