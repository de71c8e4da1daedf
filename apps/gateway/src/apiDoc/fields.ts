/**
 * The fields of a JSON Schema as reference rows: one per field, nested
 * objects and list items by dotted path (`sharingParamList[].sharingAmount`),
 * with its form and whether it is required. The schemas are the ones the
 * OpenAPI description compiles from the wire schemas, so the rows are the
 * wire's own rules.
 */
import type { JsonSchema } from "effect"

type Json = JsonSchema.JsonSchema

export interface FieldRow {
  readonly path: string
  readonly form: string
  readonly required: boolean
}

const isObject = (schema: Json): boolean => schema.type === "object"
const isMoney = (schema: Json): boolean =>
  isObject(schema) && Object.keys((schema.properties as object | undefined) ?? {}).join(",") === "amount,currency"

/** The largest integer a timestamp schema allows: the latest date JavaScript can hold. */
const timestampMaximum = 8_640_000_000_000_000

/** An `anyOf` of an object and an empty list is one object: the PHP SDK writes `[]` for `{}`. */
const branchesOf = (schema: Json): ReadonlyArray<Json> =>
  ((schema.anyOf as ReadonlyArray<Json> | undefined) ?? [schema]).filter(
    (branch) => !(branch.type === "array" && branch.items === false),
  )

const formOfBranch = (schema: Json): string => {
  if (isMoney(schema)) {
    const currencies = ((schema.properties as Record<string, Json>).currency?.enum as ReadonlyArray<string>) ?? []
    return `money (${currencies.join(", ") || "any currency"})`
  }
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => `\`${value}\``).join(", ")}`
  if (schema.type === "string") return schema.maxLength === undefined ? "text" : `text, at most ${schema.maxLength}`
  if (schema.type === "integer") {
    if (schema.maximum === timestampMaximum) return "ms since the epoch"
    const bounds = [schema.minimum, schema.maximum].every((bound) => typeof bound === "number")
    return bounds && (schema.maximum as number) < Number.MAX_SAFE_INTEGER
      ? `integer, ${schema.minimum} to ${schema.maximum}`
      : "integer"
  }
  if (schema.type === "number") return "number"
  if (schema.type === "boolean") return "boolean"
  if (schema.type === "array") return "list"
  if (isObject(schema)) return "object"
  return "any"
}

/** A field's form in words: `text, at most 64`, `money (AED)`, `one of \`YES\`, \`NO\``, `decimal`. */
export const formOf = (schema: Json): string => {
  const branches = branchesOf(schema)
  if (branches.length === 2 && branches.some((b) => b.type === "number") && branches.some((b) => b.type === "string"))
    return "decimal (a JSON number, or its text)"
  return [...new Set(branches.map(formOfBranch))].join(" or ")
}

/** The object schema a field holds, directly or as a list's items, if any. */
const objectWithin = (schema: Json): { readonly object: Json; readonly suffix: string } | undefined => {
  const branch = branchesOf(schema)[0]
  if (branch === undefined || branchesOf(schema).length !== 1 || isMoney(branch)) return undefined
  if (isObject(branch) && branch.properties !== undefined) return { object: branch, suffix: "" }
  const items = branch.items as Json | undefined
  if (branch.type === "array" && items !== undefined && isObject(items) && !isMoney(items))
    return { object: items, suffix: "[]" }
  return undefined
}

/**
 * The rows of an object schema. A field named in `named` is one row that
 * names its object (described elsewhere), rather than all of its fields.
 */
export const fieldRows = (
  schema: Json,
  named: ReadonlySet<string> = new Set(),
  prefix = "",
): ReadonlyArray<FieldRow> => {
  const properties = (schema.properties as Record<string, Json> | undefined) ?? {}
  const required = new Set((schema.required as ReadonlyArray<string> | undefined) ?? [])
  return Object.entries(properties).flatMap(([name, field]) => {
    const path = `${prefix}${name}`
    const within = named.has(name) ? undefined : objectWithin(field)
    const row: FieldRow = {
      path,
      form: named.has(name) ? `the \`${name}\` object` : formOf(field),
      required: required.has(name),
    }
    return within === undefined ? [row] : [row, ...fieldRows(within.object, named, `${path}${within.suffix}.`)]
  })
}
