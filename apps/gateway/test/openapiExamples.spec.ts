/**
 * The OpenAPI description's examples are a real run: this test runs every
 * operation against a sandbox gateway (openapiExamples/record.ts) and
 * requires src/openapi/examples.json to be exactly that run, stand-ins for
 * times and assigned numbers aside. `npm run openapi-fixtures` runs it with
 * UPDATE_OPENAPI_FIXTURES=1, which writes the file instead.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { handlers } from "../src/handlers/index.ts"
import { operationCodes, wireCodesOf } from "../src/openapi/codes.ts"
import { openApiDocument } from "../src/openapi.ts"
import { merchantApi } from "../src/pipeline/pipeline.ts"
import { sandboxApi } from "../src/sandbox/index.ts"
import { startGateway, type TestGateway } from "./harness.ts"
import { type JsonSchema, validate } from "./jsonSchemaValidator.ts"
import { type Recording, recordExamples } from "./openapiExamples/record.ts"

const fixture = fileURLToPath(new URL("../src/openapi/examples.json", import.meta.url))

let gateway: TestGateway
let recording: Recording
beforeAll(async () => {
  gateway = await startGateway()
  recording = await recordExamples(gateway)
  if (process.env.UPDATE_OPENAPI_FIXTURES === "1") writeFileSync(fixture, `${JSON.stringify(recording, null, 2)}\n`)
}, 60_000)
afterAll(() => gateway?.close())

describe("the OpenAPI examples", () => {
  it("are what a real run sends and receives (npm run openapi-fixtures writes them anew)", () => {
    expect(JSON.parse(readFileSync(fixture, "utf8"))).toEqual(recording)
  })

  it("give every operation a request and a successful answer, each valid against the operation's schemas", () => {
    const document = openApiDocument([merchantApi(handlers), sandboxApi], "http://127.0.0.1:8080")
    const schemas = document.components.schemas as Readonly<Record<string, JsonSchema>>
    const resolve = (ref: string): JsonSchema => {
      const schema = schemas[ref.replace("#/components/schemas/", "")]
      if (schema === undefined) throw new Error(`unresolved ${ref}`)
      return schema
    }
    for (const [path, item] of Object.entries(document.paths)) {
      type Content = { readonly "application/json": { readonly schema: JsonSchema; readonly example?: unknown } }
      const { post } = item as {
        post: { requestBody: { content: Content }; responses: Record<string, { content: Content }> }
      }
      const request = post.requestBody.content["application/json"]
      const answer = post.responses["200"]?.content["application/json"]
      expect(request.example, path).toMatchObject({ requestTime: expect.any(Number) })
      expect(answer?.example, path).toMatchObject({ head: { applyStatus: "SUCCESS", code: "0" } })
      // The placeholder for an RSA ciphertext is text, as the ciphertext is: it validates alike.
      expect(validate(request.schema, request.example, resolve), `${path} request`).toEqual([])
      expect(validate(answer?.schema ?? {}, answer?.example, resolve), `${path} answer`).toEqual([])
    }
  })

  it("refuse with codes their operation lists", () => {
    expect(recording.refusals.length).toBeGreaterThan(0)
    for (const { path, answer } of recording.refusals) {
      const operation = path.replace(/^\/sgs\/api/, "") as keyof typeof operationCodes
      const { code } = (answer as { head: { code: string } }).head
      expect(wireCodesOf(operationCodes[operation] ?? []), `${path} answered ${code}`).toContain(code)
    }
  })
})
