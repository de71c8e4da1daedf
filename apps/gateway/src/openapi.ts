/**
 * `GET /openapi.json`: an OpenAPI 3.1 description of the operation tables
 * the gateway serves (the merchant API, and in sandbox mode the sandbox
 * API), generated from the very wire schemas the pipeline decodes and
 * encodes with. A field changed in libs/protocol changes here too.
 *
 * Each operation is `POST <basePath><path>` with the request envelope
 * (`requestTime`, and `bizContent` from the encoded side of the row's
 * request schema) and answers the response envelope (`head`, and `body`
 * from the encoded side of its response schema), signed.
 */
import {
  apiBasePath,
  apiVersion,
  headerNames,
  jsonContentType,
  operations,
  partnerIdMaxChars,
  RequestEnvelope,
  ResponseHead,
} from "@mizan/protocol"
import { Effect, JsonSchema, Layer, Result, Schema, type SchemaAST, SchemaRepresentation } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { Gateway } from "./gateway.ts"

/** An operation table as its description needs it: the wire schemas of its rows. */
export interface DescribedApi {
  readonly basePath: string
  readonly operations: Readonly<Record<string, { readonly request: Schema.Top; readonly response: Schema.Top }>>
  readonly aliases?: Readonly<Record<string, string>>
}

export const openApiPath = "/openapi.json"

const signatureScheme = `Every operation is \`POST\` with a JSON body \`{ "requestTime": <ms since the epoch>, "bizContent": {...} }\`.

**Signatures.** Sign the exact raw bytes of the request body (UTF-8) with the merchant's RSA private key (PKCS#8, at least 2048 bits) using RSA PKCS#1 v1.5 with SHA-256 ("SHA256withRSA"), and send the standard Base64 of the signature in the \`sign\` header, with your merchant id in \`Partner-Id\` (at most ${partnerIdMaxChars} characters). Nothing is sorted or canonicalised: the signature covers the bytes sent. The service verifies it with the public key registered for the merchant (SPKI PEM). Every response carries a \`sign\` header made the same way with the service's private key over the raw response bytes: verify it with the service's public key before reading the response. Notifications to \`notifyUrl\` are signed the same way.

**Answers.** Business and protocol errors answer HTTP 200 with the code in \`head\`: \`applyStatus\` FAIL (or ERROR when the request's signature does not verify), \`code\` and \`msg\`. \`body\` is present only when \`applyStatus\` is SUCCESS and \`code\` is "0". \`requestTime\` must be within 15 minutes of the service's time (400 REQUESTTIME_TOO_EARLY / REQUESTTIME_TOO_LATER).

**Schemas** give each field's form. Rules across fields (exactly one of \`merchantOrderNo\` or \`orderNo\`, at most one sharing item with \`withholdAndRemitFee\`, ...) are checked by the service and answered with 400 INVALID_PARAMETER naming the field. Unknown fields are ignored.

**Money** is \`{ "amount": <JSON number, at most 12 digits before the point and 2 after>, "currency": "AED" }\`.

**Encrypted fields** (card, bank and identity fields) are RSA PKCS#1 v1.5 encrypted with the service's public key: the UTF-8 text in chunks of key bytes - 11, the ciphertext blocks concatenated and Base64-encoded. Where the interface recommends it (identities, beneficiary names, sharing identities, eid) the 64-character lower-case hex SHA-256 of the value is accepted instead. Responses carry only SHA-256 digests of such values.`

const sandboxDescription =
  "Sandbox helpers (sandbox mode only): drive every outcome a merchant must handle without waiting. Same envelope, headers and signatures as the merchant API; no grant is needed."

const tagDescriptions: Readonly<Record<string, string>> = {
  acquire2: "Acquiring: orders, payers, refunds, revoke and cancel.",
  transfer: "Transfers: wallet, bank and bank card transfers, payout abilities, rates, IBAN holder names.",
  sandbox: sandboxDescription,
}

/** The spec's names of the merchant API's operations; a sandbox row is named from its path. */
const summaryOf = (path: string): string =>
  (operations as Readonly<Record<string, { readonly name: string }>>)[path]?.name ??
  path
    .slice(1)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .replace(/^./, (c) => c.toUpperCase())

/** `/sgs/api` + `/acquire2/placeOrder` -> `api.acquire2.placeOrder`: unique, and valid as a component name. */
const operationIdOf = (basePath: string, path: string): string =>
  `${basePath.split("/").at(-1)}${path.replaceAll("/", ".")}`

/** The spec groups operations by their first path segment (Versioning: `acquire2`, `transfer`); the sandbox is one group. */
const tagOf = (api: DescribedApi, path: string): string =>
  api.basePath === apiBasePath ? (path.split("/")[1] ?? "api") : (api.basePath.split("/").at(-1) ?? api.basePath)

/** Whether a row takes no bizContent at all (the payout ability list): its schema accepts an absent one. */
const bizContentOptional = (schema: Schema.Top): boolean =>
  Result.isSuccess(Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown, never, never>)(undefined))

type Json = JsonSchema.JsonSchema

/**
 * Effect describes a JSON number as "a number, or one of the strings NaN,
 * Infinity, -Infinity" (its own JSON spelling of non-finite numbers). The
 * wire takes finite JSON numbers only (the kernel's amount codec refuses the
 * rest), so those alternatives are dropped.
 */
const isNonFiniteSpelling = (schema: unknown): boolean =>
  typeof schema === "object" &&
  schema !== null &&
  (schema as Json).type === "string" &&
  Array.isArray((schema as Json).enum) &&
  ((schema as Json).enum as ReadonlyArray<unknown>).every((v) => v === "NaN" || v === "Infinity" || v === "-Infinity")

/** The schema without the `anyOf` branches `drop` picks; a single branch left is the schema itself. */
const withoutBranches = (schema: Json, drop: (branch: unknown) => boolean): Json => {
  if (!Array.isArray(schema.anyOf)) return schema
  const anyOf = (schema.anyOf as ReadonlyArray<unknown>).filter((branch) => !drop(branch))
  if (anyOf.length !== 1) return { ...schema, anyOf }
  const { anyOf: _dropped, ...rest } = schema
  return { ...rest, ...(anyOf[0] as Json) }
}

const finiteNumbersOnly = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(finiteNumbersOnly)
  if (typeof schema !== "object" || schema === null) return schema
  const deep = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, finiteNumbersOnly(value)]))
  return withoutBranches(deep as Json, isNonFiniteSpelling)
}

/**
 * Effect writes "may be undefined" as "may be null" (its JSON codec reads
 * null as undefined). The pipeline reads an absent bizContent as undefined
 * and refuses a null one, so for a row whose bizContent is optional the
 * schema describes the value when present and `required` says it may be absent.
 */
const isNullType = (branch: unknown): boolean =>
  typeof branch === "object" && branch !== null && (branch as Json).type === "null"

/** Every schema root compiled together, so that named definitions are shared (OpenAPI 3.1 dialect). */
export const compileSchemas = (roots: ReadonlyArray<Schema.Top>) => {
  const asts = roots.map((schema) => schema.ast) as unknown as readonly [SchemaAST.AST, ...Array<SchemaAST.AST>]
  const compiled = JsonSchema.toMultiDocumentOpenApi3_1(
    SchemaRepresentation.toJsonSchemaMultiDocument(SchemaRepresentation.toRepresentations(asts)),
  )
  return {
    schemas: compiled.schemas.map((schema) => finiteNumbersOnly(schema) as Json),
    definitions: finiteNumbersOnly(compiled.definitions) as Readonly<Record<string, Json>>,
  }
}

const componentRef = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` })

interface Row {
  readonly api: DescribedApi
  readonly path: string
  readonly operationId: string
  readonly request: Schema.Top
  readonly response: Schema.Top
}

/** The OpenAPI 3.1 document of the operation tables given, for a gateway reached at `publicBaseUrl`. */
export const openApiDocument = (apis: ReadonlyArray<DescribedApi>, publicBaseUrl: string) => {
  const rows: ReadonlyArray<Row> = apis.flatMap((api) =>
    Object.entries(api.operations).map(([path, row]) => ({
      api,
      path,
      operationId: operationIdOf(api.basePath, path),
      request: row.request,
      response: row.response,
    })),
  )
  const { schemas, definitions } = compileSchemas([
    ResponseHead,
    RequestEnvelope,
    ...rows.flatMap((row) => [row.request, row.response]),
  ])
  const [head, envelope, ...rowSchemas] = schemas
  const components: Record<string, Json> = { ...definitions }
  const addComponent = (name: string, schema: Json | undefined) => {
    if (schema === undefined || name in components) throw new Error(`OpenAPI: component ${name} is missing or twice`)
    components[name] = schema
  }
  addComponent("ResponseHead", head)

  const paths = Object.fromEntries(
    rows.map((row, i) => {
      const bizContentName = `${row.operationId}.bizContent`
      const bodyName = `${row.operationId}.body`
      const optional = bizContentOptional(row.request)
      const bizContent = rowSchemas[2 * i]
      addComponent(
        bizContentName,
        optional && bizContent !== undefined ? withoutBranches(bizContent, isNullType) : bizContent,
      )
      addComponent(bodyName, rowSchemas[2 * i + 1])
      const requestEnvelope = {
        ...envelope,
        properties: { ...(envelope?.properties as object), bizContent: componentRef(bizContentName) },
        required: optional ? ["requestTime"] : ["requestTime", "bizContent"],
      }
      const responseEnvelope = {
        type: "object",
        description: 'body is present only when head.applyStatus is SUCCESS and head.code is "0".',
        properties: { head: componentRef("ResponseHead"), body: componentRef(bodyName) },
        required: ["head"],
      }
      const signedJson = (description: string, schema: object) => ({
        description,
        headers: { sign: { $ref: "#/components/headers/Sign" } },
        content: { [jsonContentType]: { schema } },
      })
      return [
        `${row.api.basePath}${row.path}`,
        {
          post: {
            operationId: row.operationId,
            summary: summaryOf(row.path),
            tags: [tagOf(row.api, row.path)],
            parameters: [parameterRef("PartnerId"), parameterRef("Sign"), parameterRef("ApiVersion")],
            requestBody: { required: true, content: { [jsonContentType]: { schema: requestEnvelope } } },
            responses: {
              "200": signedJson(
                "The answer, signed: success with body, or a business or protocol error in head.",
                responseEnvelope,
              ),
              "413": signedJson("The body is larger than the gateway's limit (head only).", {
                type: "object",
                properties: { head: componentRef("ResponseHead") },
                required: ["head"],
              }),
              "500": signedJson("An unexpected failure: SYSTEM_ERROR with a traceCode to quote (head only).", {
                type: "object",
                properties: { head: componentRef("ResponseHead") },
                required: ["head"],
              }),
            },
          },
        },
      ]
    }),
  )

  // An alias answers exactly as its operation; it is listed so that a client generated from this
  // document reaches it too, marked as an alias rather than as an operation of its own.
  const aliasPaths = Object.fromEntries(
    apis.flatMap((api) =>
      Object.entries(api.aliases ?? {}).map(([alias, path]) => {
        const { post } = paths[`${api.basePath}${path}`] as { readonly post: Record<string, unknown> }
        return [
          `${api.basePath}${alias}`,
          {
            post: {
              ...post,
              operationId: `${post.operationId}ViaAcquire2Prefix`,
              description: `The same operation as \`${api.basePath}${path}\` (the official PHP SDK prefixes every path with \`/acquire2\`): the same grant, rate limit and answer.`,
              "x-alias-of": `${api.basePath}${path}`,
            },
          },
        ]
      }),
    ),
  )

  const tags = [...new Set(rows.map((row) => tagOf(row.api, row.path)))].map((name) => ({
    name,
    ...(tagDescriptions[name] === undefined ? {} : { description: tagDescriptions[name] }),
  }))

  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    info: {
      title: "Mizan merchant payment, refund and payout API",
      version: apiVersion,
      description: signatureScheme,
    },
    servers: [{ url: publicBaseUrl }],
    tags,
    paths: { ...paths, ...aliasPaths },
    components: {
      schemas: components,
      parameters: {
        PartnerId: {
          name: headerNames.partnerId,
          in: "header",
          required: true,
          description: "The merchant's id. Header names are read in any letter case.",
          schema: { type: "string", minLength: 1, maxLength: partnerIdMaxChars },
        },
        Sign: {
          name: headerNames.sign,
          in: "header",
          required: true,
          description:
            "Standard Base64 of the SHA256withRSA (RSA PKCS#1 v1.5) signature of the exact raw request body bytes, made with the merchant's private key.",
          schema: { type: "string" },
        },
        ApiVersion: {
          name: headerNames.apiVersion,
          in: "header",
          required: false,
          description: "Sent by the official clients; accepted and ignored.",
          schema: { type: "string", enum: [apiVersion] },
        },
      },
      headers: {
        Sign: {
          required: true,
          description:
            "Standard Base64 of the service's SHA256withRSA signature of the exact raw response body bytes: verify it with the service's public key.",
          schema: { type: "string" },
        },
      },
    },
  }
}

/**
 * The route serving the description. It is generated once, at the first
 * request: the tables do not change while the gateway runs, and by then the
 * gateway knows the port it really listens on (its `servers` entry).
 */
export const openApiRoute = (apis: ReadonlyArray<DescribedApi>) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const gateway = yield* Gateway
      const router = yield* HttpRouter.HttpRouter
      let document: string | undefined
      yield* router.add(
        "GET",
        openApiPath,
        Effect.sync(() => {
          document ??= JSON.stringify(openApiDocument(apis, gateway.publicBaseUrl), null, 2)
          return HttpServerResponse.text(document, { contentType: "application/json; charset=utf-8" })
        }),
      )
    }),
  )
