// Queries built and compiled once. Kysely builds a query's tree and compiles it to SQL text on
// every call; on the hot reads (a server's detail, the balance) that was a fifth of the API's CPU
// per request. A precompiled query is built once with a slot where each value goes, compiled on
// first use, and each call then only puts its values in the slots' places and runs the same SQL
// text through the handle it is given (a transaction included; plugins and driver unchanged).
// The same text object every time also keeps prepared.ts's name lookup cheap (V8 caches a
// string's hash on the string).
//
// Slots stand for values only (comparisons, LIMIT/OFFSET, values in sql`` fragments): never for
// identifiers, never read by the building code itself (a branch on a slot sees an object, not the
// value). Queries whose shape depends on the values (optional filters) are not for this.
import { type Compilable, type CompiledQuery, type RawBuilder, type RootOperationNode, createQueryId } from 'kysely';
import type { Db } from './connection.ts';

type Scalar = string | number | boolean | Date | null;

class Slot {
  constructor(readonly name: string) {}
}

interface Compiled {
  sql: string;
  query: RootOperationNode;
  /** Per parameter of the SQL: the slot it takes its value from, or the constant compiled in. */
  sources: ({ slot: string } | { value: unknown })[];
}

export interface Precompiled<P, R> {
  execute(db: Db, values: P): Promise<R[]>;
  executeTakeFirst(db: Db, values: P): Promise<R | undefined>;
}

/**
 * `build` receives the handle and an object whose properties are the slots (typed as the values
 * they stand for) and returns the query; it runs once.
 */
export function precompile<P extends Record<string, Scalar>, R>(build: (db: Db, slots: P) => Compilable<R> | RawBuilder<R>): Precompiled<P, R> {
  let compiled: Compiled | undefined;
  const compile = (db: Db): Compiled => {
    const slots = new Proxy({}, { get: (_, name) => new Slot(String(name)) }) as P;
    const built = build(db, slots);
    const { sql, query, parameters } = 'isRawBuilder' in built ? built.compile(db) : built.compile();
    const sources = parameters.map((v) => (v instanceof Slot ? { slot: v.name } : { value: v }));
    // A slot in an identifier's place would be compiled into the text.
    if (sql.includes('[object Object]')) throw new Error(`A slot was compiled into the SQL text: ${sql}`);
    return { sql, query, sources };
  };
  const execute = async (db: Db, values: P): Promise<R[]> => {
    compiled ??= compile(db);
    const parameters = compiled.sources.map((s) => ('slot' in s ? values[s.slot] : s.value));
    const query: CompiledQuery<R> = { sql: compiled.sql, query: compiled.query, parameters, queryId: createQueryId() };
    return (await db.executeQuery(query)).rows;
  };
  return {
    execute,
    async executeTakeFirst(db, values) {
      return (await execute(db, values))[0];
    },
  };
}
