/**
 * Requests a merchant writes are described closed: every object says
 * `additionalProperties: false`, so a client generated from the description
 * refuses a misspelt field (`merchantOrderN0`) before it is sent. The
 * service itself stays lenient (docs/api.md#transport: unknown fields are
 * ignored), because the official SDKs send fields of their own; the
 * description tells a merchant what to write, not what the service forgives.
 */
import { type Json, mapSchema } from "./tree.ts"

const isObjectSchema = (node: Json): boolean => node.type === "object" || node.properties !== undefined

export const closedObjects = (schema: Json): Json =>
  mapSchema(schema, (node) => (isObjectSchema(node) ? { ...node, additionalProperties: false } : node))
