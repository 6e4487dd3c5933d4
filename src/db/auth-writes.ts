// The writes that change who may do what (the rows the key cache holds), seen as this process
// makes them. Other processes learn of them from the triggers of migration 0014 (NOTIFY at
// commit); this process also hears of them the moment the statement returns, so a request that
// follows the write in the same process never meets the old key, however late the NOTIFY is read.
// Only Kysely-built UPDATE and DELETE statements are seen here; raw SQL is covered by the NOTIFY.
import type { KyselyPlugin, OperationNode, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/** The columns per table whose change the triggers of 0014 announce (null: any, i.e. a DELETE). */
const WATCHED: Record<string, readonly string[]> = {
  api_keys: ['revoked_at', 'scopes', 'ip_allowlist', 'sub_user_id', 'is_test', 'account_id', 'key_hash'],
  sub_users: ['status', 'permissions', 'deleted_at'],
  accounts: ['status'],
};

type Listener = () => void;
const listeners = new Set<Listener>();

/** Called after each such statement of this process; returns the unsubscribe. */
export function onLocalAuthWrite(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

interface Node { kind: string; [k: string]: unknown }

function tableName(node: unknown): string | undefined {
  const n = node as Node | undefined;
  if (!n) return undefined;
  if (n.kind === 'AliasNode') return tableName(n.node);
  if (n.kind === 'TableNode') return ((n.table as Node).identifier as { name: string }).name;
  return undefined;
}

function columnName(node: unknown): string | undefined {
  const n = node as Node;
  return n.kind === 'ColumnNode' ? (n.column as { name: string }).name : undefined;
}

function watched(node: RootOperationNode): boolean {
  const n = node as unknown as Node;
  if (n.kind === 'UpdateQueryNode') {
    const cols = WATCHED[tableName(n.table) ?? ''];
    const updates = (n.updates ?? []) as { column: OperationNode }[];
    return cols !== undefined && updates.some((u) => cols.includes(columnName(u.column) ?? ''));
  }
  if (n.kind === 'DeleteQueryNode') {
    const froms = ((n.from as Node | undefined)?.froms ?? []) as unknown[];
    return froms.some((f) => WATCHED[tableName(f) ?? ''] !== undefined);
  }
  return false;
}

export class AuthWritesPlugin implements KyselyPlugin {
  readonly #pending = new WeakSet<object>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (watched(args.node)) this.#pending.add(args.queryId);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#pending.has(args.queryId)) {
      this.#pending.delete(args.queryId);
      for (const fn of listeners) fn();
    }
    return args.result;
  }
}
