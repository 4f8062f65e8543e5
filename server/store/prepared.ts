/**
 * Queries of a fixed shape compiled once. Kysely builds and compiles a query's SQL on every call; for the calls the
 * server makes thousands of times a second (the status poll and its session check) that is a good share of the work.
 * `prepared` compiles the query once with stand-ins for its arguments and afterwards only swaps the values in.
 *
 * Given a `name`, the query is also a server-side prepared statement on PostgreSQL (store/engines.ts): each connection
 * parses and plans it once instead of on every call, which doubles what PostgreSQL answers per second for a query this
 * small. A named query must list its columns (never `selectAll`): a statement prepared by a running process fails once
 * a newer process's migration adds a column to a table it reads with `*`.
 */
import type { CompiledQuery, Compilable, Kysely } from 'kysely';
import type { Database } from './schema';

/** The comment that names a prepared statement: `/* prepared:pollStatus *\/ select …`. */
export const PREPARED_NAME = /^\/\* prepared:([A-Za-z0-9_]+) \*\/ /;

class Argument {
  constructor(readonly name: string) {}
}

/**
 * `prepared((a: { id: string }) => db.selectFrom('sessions').selectAll().where('id', '=', a.id))` answers a
 * function `(db, { id })` that runs that query on any connection or transaction of the same engine. The builder must
 * use the arguments only as values (in where, values, set, limit…), which is where Kysely makes them parameters.
 */
export function prepared<Args extends Record<string, unknown>, Row>(
  build: (args: Args) => Compilable<Row>,
  options: { name?: string } = {},
): (on: Kysely<Database>, args: Args) => Promise<Row[]> {
  const stand = new Proxy({} as Args, { get: (_target, name) => new Argument(String(name)) });
  const built = build(stand).compile();
  const compiled = options.name ? { ...built, sql: `/* prepared:${options.name} */ ${built.sql}` } : built;
  const slots = compiled.parameters.map((value) => (value instanceof Argument ? value.name : null));
  const constants = compiled.parameters;
  return async (on, args) => {
    const parameters = slots.map((slot, i) => (slot === null ? constants[i] : args[slot]));
    const query: CompiledQuery<Row> = { ...compiled, parameters };
    return (await on.executeQuery(query)).rows;
  };
}
