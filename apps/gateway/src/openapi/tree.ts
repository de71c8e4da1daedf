/**
 * Walking compiled JSON Schemas: the description is Effect's compiled
 * schemas, reshaped by small passes (shared components, closed requests,
 * enums, descriptions), each a function of a schema to a schema.
 */
import type { JsonSchema } from "effect"

export type Json = JsonSchema.JsonSchema

export const isJsonObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const singleSchemaKeys = ["items", "additionalProperties", "not"] as const
const schemaListKeys = ["anyOf", "oneOf", "allOf", "prefixItems"] as const
const schemaMapKeys = ["properties", "$defs"] as const

/**
 * Rebuilds a schema bottom-up: `visit` sees every subschema (and then the
 * schema itself) after its own subschemas were rebuilt. Only schema
 * positions are visited, so a field named `type` is never taken for the
 * `type` keyword.
 */
export const mapSchema = (schema: Json, visit: (node: Json) => Json): Json => {
  const rebuilt: Record<string, unknown> = { ...schema }
  const sub = (value: unknown) => (isJsonObject(value) ? mapSchema(value, visit) : value)
  for (const key of singleSchemaKeys) if (key in schema) rebuilt[key] = sub(schema[key])
  for (const key of schemaListKeys)
    if (Array.isArray(schema[key])) rebuilt[key] = (schema[key] as ReadonlyArray<unknown>).map(sub)
  for (const key of schemaMapKeys)
    if (isJsonObject(schema[key]))
      rebuilt[key] = Object.fromEntries(Object.entries(schema[key]).map(([name, value]) => [name, sub(value)]))
  return visit(rebuilt)
}

/** The same schema with its keys sorted: two schemas are the same shape when their canonical texts are equal. */
export const canonicalText = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    isJsonObject(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b))) : inner,
  )

/** The schema without the `anyOf` branches `drop` picks; a single branch left is the schema itself. */
export const withoutBranches = (schema: Json, drop: (branch: unknown) => boolean): Json => {
  if (!Array.isArray(schema.anyOf)) return schema
  const anyOf = (schema.anyOf as ReadonlyArray<unknown>).filter((branch) => !drop(branch))
  if (anyOf.length !== 1) return { ...schema, anyOf }
  const { anyOf: _dropped, ...rest } = schema
  return { ...rest, ...(anyOf[0] as Json) }
}

export const componentPrefix = "#/components/schemas/"
export const componentRef = (name: string): Json => ({ $ref: `${componentPrefix}${name}` })

/** The schema with every `$ref` to a component replaced by the component, for readers that want one tree (docs/api.md's tables). */
export const inlineRefs = (schema: Json, components: Readonly<Record<string, Json>>): Json =>
  mapSchema(schema, (node) => {
    if (typeof node.$ref !== "string" || !node.$ref.startsWith(componentPrefix)) return node
    const { $ref, ...siblings } = node
    const target = components[($ref as string).slice(componentPrefix.length)]
    if (target === undefined) throw new Error(`OpenAPI: unresolved ${$ref}`)
    return { ...inlineRefs(target, components), ...siblings }
  })
