/**
 * Effect's JSON Schema compiler, as the description needs it: every root
 * compiled together (OpenAPI 3.1 dialect), without the spellings of
 * non-finite numbers the wire never takes.
 */
import { JsonSchema, type Schema, type SchemaAST, SchemaRepresentation } from "effect"
import { isJsonObject, type Json, mapSchema, withoutBranches } from "./tree.ts"

/**
 * Effect describes a JSON number as "a number, or one of the strings NaN,
 * Infinity, -Infinity" (its own JSON spelling of non-finite numbers). The
 * wire takes finite JSON numbers only (the kernel's amount codec refuses the
 * rest), so those alternatives are dropped.
 */
const isNonFiniteSpelling = (schema: unknown): boolean =>
  isJsonObject(schema) &&
  schema.type === "string" &&
  Array.isArray(schema.enum) &&
  schema.enum.every((v) => v === "NaN" || v === "Infinity" || v === "-Infinity")

const finiteNumbersOnly = (schema: Json): Json =>
  mapSchema(schema, (node) => withoutBranches(node, isNonFiniteSpelling))

/** Every schema root compiled together, so that named definitions are shared (OpenAPI 3.1 dialect). */
export const compileSchemas = (roots: ReadonlyArray<Schema.Top>) => {
  const asts = roots.map((schema) => schema.ast) as unknown as readonly [SchemaAST.AST, ...Array<SchemaAST.AST>]
  const compiled = JsonSchema.toMultiDocumentOpenApi3_1(
    SchemaRepresentation.toJsonSchemaMultiDocument(SchemaRepresentation.toRepresentations(asts)),
  )
  return {
    schemas: compiled.schemas.map((schema) => finiteNumbersOnly(schema as Json)),
    definitions: Object.fromEntries(
      Object.entries(compiled.definitions).map(([name, schema]) => [name, finiteNumbersOnly(schema as Json)]),
    ) as Readonly<Record<string, Json>>,
  }
}
