/**
 * How this store's connections parse the column types it reads, fixed per
 * connection. node-postgres keeps its parsers in one process-wide registry
 * that other libraries rewrite (Emmett's dumbo, for one, turns every int8
 * into a BigInt and parses every json value with a reviver); the store's
 * rows must not change shape with whatever else the process loaded.
 */
import type pg from "pg"

/** PostgreSQL type oids (pg_type.oid) of the columns the store reads. */
const boolOid = 16
const int4Oid = 23
const jsonOid = 114

const asText = (value: string): string => value

/**
 * int8 stays text (positions are read with BigInt, exactly), int4 is a
 * number, json is parsed as written, bool is a boolean.
 */
export const columnTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number) => {
    switch (oid) {
      case jsonOid:
        return JSON.parse
      case int4Oid:
        return (value: string) => Number.parseInt(value, 10)
      case boolOid:
        return (value: string) => value === "t"
      default:
        return asText
    }
  }) as pg.CustomTypesConfig["getTypeParser"],
}
