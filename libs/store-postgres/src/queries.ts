import { Effect } from "effect"
import type pg from "pg"
import { storeErrorFrom } from "./errors.ts"
import type { Statement } from "./statements.ts"

/** The pool, or the one connection of a transaction (transaction.ts). */
export interface Queryable {
  readonly query: <Row extends pg.QueryResultRow>(config: pg.QueryConfig) => Promise<pg.QueryResult<Row>>
}

/** The rows of one prepared statement; its failure a StoreError naming `action`. */
export const queryRows = <Row extends object>(
  on: Queryable,
  action: string,
  statement: Statement,
  values: ReadonlyArray<unknown>,
) =>
  Effect.tryPromise({
    try: () => on.query<Row>({ ...statement, values: [...values] }).then((result) => result.rows),
    catch: storeErrorFrom(action),
  })
