/**
 * The OpenAPI description: served, complete, and true to the wire. Samples
 * built from the spec's tables (libs/protocol/test/samples.ts) and a real
 * answer of the gateway validate against it, checked by a small JSON Schema
 * validator written here (none is installed), which refuses any keyword it
 * does not know rather than pass it unchecked.
 */
import { operationAliases, operationPaths } from "@mizan/protocol"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { requestSamples, responseSamples } from "../../../libs/protocol/test/samples.ts"
import { handlers } from "../src/handlers/index.ts"
import { openApiDocument } from "../src/openapi.ts"
import { merchantApi } from "../src/pipeline.ts"
import { sandboxApi } from "../src/sandbox/index.ts"
import { merchantKeys, startGateway, type TestGateway } from "./harness.ts"
import { postSigned } from "./raw.ts"

// --- A small JSON Schema (2020-12 subset) validator ---------------------------

type JsonSchema = { readonly [keyword: string]: unknown }

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
const validate = (
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

// --- The document ------------------------------------------------------------

interface Document {
  readonly openapi: string
  readonly paths: Readonly<Record<string, { readonly post: Operation }>>
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>
    readonly parameters: Readonly<Record<string, { readonly name: string; readonly in: string; required: boolean }>>
  }
  readonly info: { readonly description: string }
}

interface Operation {
  readonly parameters: ReadonlyArray<{ readonly $ref: string }>
  readonly requestBody: { readonly content: { readonly "application/json": { readonly schema: JsonSchema } } }
  readonly responses: Readonly<
    Record<string, { readonly content: { readonly "application/json": { readonly schema: JsonSchema } } }>
  >
}

let gateway: TestGateway
let document: Document
beforeAll(async () => {
  gateway = await startGateway()
  const response = await fetch(`${gateway.baseUrl}/openapi.json`)
  expect(response.headers.get("content-type")).toMatch(/^application\/json/)
  document = JSON.parse(await response.text())
})
afterAll(() => gateway.close())

const resolveIn =
  (doc: Document) =>
  (ref: string): JsonSchema => {
    const name = ref.replace(/^#\/components\/schemas\//, "")
    const schema = doc.components.schemas[name]
    if (schema === undefined) throw new Error(`unresolved $ref ${ref}`)
    return schema
  }

const requestSchemaOf = (path: string) => {
  const operation = document.paths[path]?.post
  if (operation === undefined) throw new Error(`no operation at ${path}`)
  return operation.requestBody.content["application/json"].schema
}

const requestProblems = (path: string, bizContent: unknown) =>
  validate(
    requestSchemaOf(path),
    bizContent === undefined ? { requestTime: 1_700_000_000_000 } : { requestTime: 1_700_000_000_000, bizContent },
    resolveIn(document),
  )

describe("GET /openapi.json", () => {
  it("serves an OpenAPI 3.1 document as JSON", () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/)
  })

  it("describes every operation of the protocol's catalogue, and in sandbox mode every sandbox helper", () => {
    for (const path of operationPaths) expect(document.paths, path).toHaveProperty([`/sgs/api${path}`, "post"])
    for (const path of Object.keys(sandboxApi.operations))
      expect(document.paths, path).toHaveProperty([`/sgs/sandbox${path}`, "post"])
    const aliases = Object.keys(operationAliases)
    expect(Object.keys(document.paths)).toHaveLength(
      operationPaths.length + aliases.length + Object.keys(sandboxApi.operations).length,
    )
  })

  it("lists each alias the PHP SDK posts to, marked as the alias of the spec's path", () => {
    expect(Object.keys(operationAliases)).toContain("/acquire2/transfer/placeTransferOrder")
    for (const [alias, path] of Object.entries(operationAliases))
      expect(document.paths[`/sgs/api${alias}`]?.post, alias).toMatchObject({ "x-alias-of": `/sgs/api${path}` })
  })

  it("leaves the sandbox out of a production gateway's description", () => {
    const production = openApiDocument([merchantApi(handlers)], "https://pay.example")
    expect(Object.keys(production.paths).every((path) => path.startsWith("/sgs/api/"))).toBe(true)
    expect(Object.keys(production.paths)).toHaveLength(operationPaths.length + Object.keys(operationAliases).length)
  })

  it("documents the Partner-Id and sign headers on every operation, and the signature scheme", () => {
    const { PartnerId, Sign } = document.components.parameters
    expect(PartnerId).toMatchObject({ name: "Partner-Id", in: "header", required: true })
    expect(Sign).toMatchObject({ name: "sign", in: "header", required: true })
    for (const [path, { post }] of Object.entries(document.paths))
      expect(
        post.parameters.map((p) => p.$ref),
        path,
      ).toEqual(expect.arrayContaining(["#/components/parameters/PartnerId", "#/components/parameters/Sign"]))
    expect(document.info.description).toContain("SHA256withRSA")
    expect(document.info.description).toContain("raw bytes")
  })
})

describe("the schemas are the wire's", () => {
  it("accepts the request sample of every operation against its bizContent schema", () => {
    const samples = requestSamples()
    for (const path of operationPaths) expect(requestProblems(`/sgs/api${path}`, samples[path]), path).toEqual([])
  })

  it("refuses a subject over 12 characters, a missing merchantOrderNo and an amount that is not a number", () => {
    const sample = requestSamples()["/acquire2/placeOrder"] as Record<string, unknown>
    const { merchantOrderNo: _, ...withoutNumber } = sample
    expect(requestProblems("/sgs/api/acquire2/placeOrder", { ...sample, subject: "thirteen char" })).toEqual([
      "$.bizContent.subject: too long",
    ])
    expect(requestProblems("/sgs/api/acquire2/placeOrder", withoutNumber)).toEqual([
      "$.bizContent.merchantOrderNo: is required",
    ])
    expect(
      requestProblems("/sgs/api/acquire2/placeOrder", { ...sample, totalAmount: { amount: true, currency: "AED" } }),
    ).toHaveLength(1)
    expect(requestProblems("/sgs/api/acquire2/placeOrder", undefined)).toEqual(["$.bizContent: is required"])
  })

  it("describes an amount as a JSON number (or its decimal text), never as NaN or Infinity", () => {
    const bizContent = document.components.schemas["api.acquire2.placeOrder.bizContent"] as {
      properties: { totalAmount: { properties: { amount: unknown } } }
    }
    expect(bizContent.properties.totalAmount.properties.amount).toEqual({
      anyOf: [{ type: "number" }, { type: "string" }],
    })
    expect(JSON.stringify(document)).not.toMatch(/"(NaN|Infinity)"/)
  })

  it("takes no bizContent for the payout ability list, and refuses a null one as the gateway does", () => {
    expect(requestProblems("/sgs/api/transfer/getFundoutAbilityList", undefined)).toEqual([])
    expect(requestProblems("/sgs/api/transfer/getFundoutAbilityList", null)).not.toEqual([])
  })

  it("accepts the response sample of every operation against its body schema", () => {
    for (const path of operationPaths) {
      const schema = document.paths[`/sgs/api${path}`]?.post.responses["200"]?.content["application/json"].schema ?? {}
      const envelope = { head: { applyStatus: "SUCCESS", code: "0", msg: "SUCCESS" }, body: responseSamples[path] }
      expect(validate(schema, envelope, resolveIn(document)), path).toEqual([])
    }
  })

  it("describes a real signed answer of the gateway", async () => {
    const path = "/sgs/api/acquire2/placeOrder"
    const body = JSON.stringify({
      requestTime: Date.now(),
      bizContent: {
        merchantOrderNo: `oa-${Date.now()}`,
        subject: "Coffee",
        totalAmount: { amount: 10.5, currency: "AED" },
        paySceneCode: "PAYPAGE",
      },
    })
    const answer = await postSigned(`${gateway.baseUrl}${path}`, body, "M1", merchantKeys("M1").privateKey)
    expect(answer.json.head.code).toBe("0")
    const schema = document.paths[path]?.post.responses["200"]?.content["application/json"].schema ?? {}
    expect(validate(schema, answer.json, resolveIn(document))).toEqual([])
  })
})
