/**
 * A small JSON Schema (2020-12 subset) validator for the OpenAPI tests:
 * none is installed, and this one refuses any keyword it does not know
 * rather than pass it unchecked.
 */

export type JsonSchema = { readonly [keyword: string]: unknown }

/** Keywords that only annotate: they never make a value invalid. */
const annotations = new Set(["title", "description", "examples", "default", "format", "$schema", "deprecated"])

const typeOf = (value: unknown): string => {
  if (value === null) return "null"
  if (Array.isArray(value)) return "array"
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number"
  return typeof value
}

const hasType = (value: unknown, type: string): boolean =>
  typeOf(value) === type || (type === "number" && typeOf(value) === "integer")

/** Problems of `value` against `schema`, each with its path; `[]` when it conforms. */
export const validate = (
  schema: JsonSchema | boolean,
  value: unknown,
  resolve: (ref: string) => JsonSchema,
  at = "$",
): Array<string> => {
  if (schema === true) return []
  if (schema === false) return [`${at}: no value is allowed`]
  const problems: Array<string> = []
  const object = value as Readonly<Record<string, unknown>>
  for (const [keyword, rule] of Object.entries(schema)) {
    if (annotations.has(keyword)) continue
    switch (keyword) {
      case "$ref":
        problems.push(...validate(resolve(rule as string), value, resolve, at))
        break
      case "type": {
        const types = Array.isArray(rule) ? rule : [rule]
        if (!types.some((type) => hasType(value, type))) problems.push(`${at}: is ${typeOf(value)}, not ${types}`)
        break
      }
      case "enum":
        if (!(rule as Array<unknown>).includes(value)) problems.push(`${at}: ${JSON.stringify(value)} is not listed`)
        break
      case "const":
        if (value !== rule) problems.push(`${at}: is not ${JSON.stringify(rule)}`)
        break
      case "maxLength":
        if (typeof value === "string" && [...value].length > (rule as number)) problems.push(`${at}: too long`)
        break
      case "minLength":
        if (typeof value === "string" && [...value].length < (rule as number)) problems.push(`${at}: too short`)
        break
      case "pattern":
        if (typeof value === "string" && !new RegExp(rule as string, "u").test(value)) problems.push(`${at}: no match`)
        break
      case "minimum":
        if (typeof value === "number" && value < (rule as number)) problems.push(`${at}: below ${rule}`)
        break
      case "maximum":
        if (typeof value === "number" && value > (rule as number)) problems.push(`${at}: above ${rule}`)
        break
      case "required":
        if (typeOf(value) === "object")
          for (const key of rule as Array<string>) if (!(key in object)) problems.push(`${at}.${key}: is required`)
        break
      case "properties":
        if (typeOf(value) === "object")
          for (const [key, property] of Object.entries(rule as Record<string, JsonSchema>))
            if (key in object) problems.push(...validate(property, object[key], resolve, `${at}.${key}`))
        break
      case "additionalProperties":
        if (typeOf(value) === "object") {
          const declared = new Set(Object.keys((schema.properties as object | undefined) ?? {}))
          for (const [key, field] of Object.entries(object))
            if (!declared.has(key))
              problems.push(...validate(rule as JsonSchema | boolean, field, resolve, `${at}.${key}`))
        }
        break
      case "items":
        if (Array.isArray(value))
          value.forEach((item, i) => {
            problems.push(...validate(rule as JsonSchema, item, resolve, `${at}[${i}]`))
          })
        break
      case "anyOf":
      case "oneOf": {
        const matching = (rule as Array<JsonSchema>).filter(
          (branch) => validate(branch, value, resolve, at).length === 0,
        )
        if (matching.length === 0 || (keyword === "oneOf" && matching.length > 1))
          problems.push(`${at}: matches ${matching.length} of the ${keyword} branches`)
        break
      }
      case "allOf":
        for (const branch of rule as Array<JsonSchema>) problems.push(...validate(branch, value, resolve, at))
        break
      default:
        throw new Error(`the test's validator does not know the keyword ${keyword} (at ${at})`)
    }
  }
  return problems
}
