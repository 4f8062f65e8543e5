/**
 * Queries of a fixed shape compiled once per engine. Kysely builds and compiles a query's SQL on every call; for the
 * calls the server makes thousands of times a second (the status poll and its session check) that is a good share of
 * the work. `prepared` compiles the query the first time it runs on an engine, with stand-ins for its arguments, and
 * afterwards only swaps the values in.
 *
 * Given a `name`, the query is also a server-side prepared statement on PostgreSQL (engines.ts): each connection
 * parses and plans it once instead of on every call, which doubles what PostgreSQL answers per second for a query this
 * small. A named query must list its columns (never `selectAll`): a statement prepared by a running process fails once
 * a newer process's migration adds a column to a table it reads with `*`.
 */
import type { CompiledQuery, Compilable, Kysely } from 'kysely';
import type { Database } from './database';
import type { Engine } from './engines';

class Argument {
  constructor(readonly name: string) {}
}

/** Where a prepared query runs: a store or a transaction (its query builder and which engine it speaks to). */
export interface QueryTarget {
  readonly db: Kysely<Database>;
  readonly engine: Engine;
}

/**
 * `prepared((db, a: { id: string }) => db.selectFrom('sessions').select(['id']).where('id', '=', a.id))` answers a
 * function `(store, { id })` that runs that query on the store or transaction given. The builder must use the
 * arguments only as values (in where, values, set, limit…), which is where Kysely makes them parameters.
 */
export function prepared<Args extends Record<string, unknown>, Row>(
  build: (db: Kysely<Database>, args: Args) => Compilable<Row>,
  options: { name?: string } = {},
): (on: QueryTarget, args: Args) => Promise<Row[]> {
  const stand = new Proxy({} as Args, { get: (_target, name) => new Argument(String(name)) });
  // The SQL differs by dialect only, so one compilation serves every store and transaction of an engine.
  const byEngine = new Map<Engine, { compiled: CompiledQuery<Row>; slots: (string | null)[] }>();
  const compile = (db: Kysely<Database>) => {
    const built = build(db, stand).compile();
    const compiled = options.name ? { ...built, sql: `/* prepared:${options.name} */ ${built.sql}` } : built;
    return { compiled, slots: compiled.parameters.map((value) => (value instanceof Argument ? value.name : null)) };
  };
  return async (on, args) => {
    let query = byEngine.get(on.engine);
    if (!query) byEngine.set(on.engine, (query = compile(on.db)));
    const { compiled, slots } = query;
    const parameters = slots.map((slot, i) => (slot === null ? compiled.parameters[i] : args[slot]));
    return (await on.db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}
