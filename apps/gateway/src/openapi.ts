/**
 * `GET /openapi.json`: an OpenAPI 3.1 description of the operation tables
 * the gateway serves (the merchant API, and in sandbox mode the sandbox
 * API), and of the notifications it posts back, generated from the very
 * wire schemas the pipeline decodes and encodes with. A field changed in
 * libs/protocol changes here too.
 *
 * Each operation is `POST <basePath><path>` with the request envelope
 * (`requestTime`, and `bizContent` from the encoded side of the row's
 * request schema) and answers the response envelope (`head`, and `body`
 * from the encoded side of its response schema), signed. The compiled
 * schemas then pass through small steps (src/openapi/*): shared shapes
 * become components, requests are closed, closed sets become enums, every
 * field gets its meaning, and each operation its codes and a recorded
 * example.
 */
import type { CodeName } from "@mizan/kernel"
import { withoutUndefined } from "@mizan/kernel"
import { apiBasePath, apiVersion, headerNames, jsonContentType, operations, ResponseHead } from "@mizan/protocol"
import { Effect, Layer, Result, Schema } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { closedObjects } from "./openapi/closed.ts"
import { withClosedSets } from "./openapi/closedSets.ts"
import { codeLines, commonCodes, headCodeSchema, operationCodes, sandboxCodes, wireCodesOf } from "./openapi/codes.ts"
import { compileSchemas } from "./openapi/compile.ts"
import { describedFields } from "./openapi/descriptions.ts"
import { type RecordedExamples, recordedExamples } from "./openapi/examples.ts"
import { operationDescriptions } from "./openapi/operations.ts"
import { securitySchemes, serviceDescription } from "./openapi/security.ts"
import { sharedComponents } from "./openapi/shared.ts"
import { componentPrefix, componentRef, isJsonObject, type Json, withoutBranches } from "./openapi/tree.ts"
import { notificationWebhooks } from "./openapi/webhooks.ts"
import { ApiSettings } from "./pipeline/apiSettings.ts"

export { compileSchemas } from "./openapi/compile.ts"

/** An operation table as its description needs it: the wire schemas of its rows. */
export interface DescribedApi {
  readonly basePath: string
  readonly operations: Readonly<
    Record<string, { readonly request: Schema.Top; readonly response: Schema.Top; readonly headSuccess?: boolean }>
  >
  readonly aliases?: Readonly<Record<string, string>>
}

export const openApiPath = "/openapi.json"

const tagDescriptions: Readonly<Record<string, string>> = {
  acquire2: "Acquiring: orders, payers, refunds, revoke and cancel.",
  transfer: "Transfers: wallet, bank and bank card transfers, payout abilities, rates, IBAN holder names.",
  sandbox:
    "Sandbox helpers (sandbox mode only): drive every outcome a merchant must handle without waiting. Same envelope, headers and signatures as the merchant API; no grant is needed.",
  notifications: "What the service POSTs to a merchant's notifyUrl.",
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

/**
 * Effect writes "may be undefined" as "may be null" (its JSON codec reads
 * null as undefined). The pipeline reads an absent bizContent as undefined
 * and refuses a null one, so for a row whose bizContent is optional the
 * schema describes the value when present and `required` says it may be absent.
 */
const isNullType = (branch: unknown): boolean => isJsonObject(branch) && branch.type === "null"

/** The business codes of a row: the merchant API's table, or the sandbox's. */
const codesOf = (api: DescribedApi, path: string): ReadonlyArray<CodeName> => [
  ...commonCodes,
  ...(api.basePath === apiBasePath ? (operationCodes[path as keyof typeof operationCodes] ?? []) : sandboxCodes),
]

/** The meaning of every field and the enums of closed sets: the last step of every schema. */
const finished = (schema: Json, component?: string): Json => describedFields(withClosedSets(schema, component))

/**
 * The request envelope. Written here rather than compiled: `requestTime`
 * is a Timestamp or an RFC 3339 date-time (the PHP SDK), a union the wire
 * decodes by hand.
 */
const requestEnvelope = (bizContentName: string, optional: boolean): Json => ({
  type: "object",
  properties: {
    requestTime: {
      description:
        "When the request was made, within 15 minutes of the service's time: milliseconds since the epoch, or an RFC 3339 date-time with its UTC offset (2026-11-24T00:54:42.000+04:00).",
      anyOf: [componentRef("Timestamp"), { type: "string", format: "date-time" }],
    },
    partnerId: {
      type: "string",
      description: "The merchant's id, as the PHP SDK sends it; when present it must equal the Partner-Id header.",
    },
    bizContent: { ...componentRef(bizContentName), description: "The operation's parameters." },
  },
  required: optional ? ["requestTime"] : ["requestTime", "bizContent"],
  additionalProperties: false,
})

/** The head's `success`, on an operation whose answers carry it (`headSuccess`). */
const successInHead: Json = {
  type: "boolean",
  description: 'This operation\'s head always carries it: true exactly when applyStatus is SUCCESS and code is "0".',
}

/** What a row's head adds to ResponseHead: its own codes, and `success` where the row answers it. */
const rowHead = (codes: ReadonlyArray<CodeName>, headSuccess: boolean): Json => {
  const code: Json = {
    type: "string",
    enum: wireCodesOf(codes),
    description: "The codes this operation answers (see ResponseHead.code for their meanings).",
  }
  return headSuccess
    ? { type: "object", properties: { code, success: successInHead }, required: ["success"] }
    : { type: "object", properties: { code } }
}

/** The answer envelope of a row: its body, and a head whose code is one of the row's. */
const answerEnvelope = (bodyName: string, codes: ReadonlyArray<CodeName>, headSuccess: boolean): Json => ({
  type: "object",
  properties: {
    head: { description: "The outcome.", allOf: [componentRef("ResponseHead"), rowHead(codes, headSuccess)] },
    body: {
      ...componentRef(bodyName),
      description: 'Present only when head.applyStatus is SUCCESS and head.code is "0".',
    },
  },
  required: ["head"],
})

const headOnly: Json = {
  type: "object",
  properties: { head: { ...componentRef("ResponseHead"), description: "The outcome." } },
  required: ["head"],
}

/** Every component a part of the document refers to, directly or through other components. */
const referencedComponents = (roots: ReadonlyArray<unknown>, components: Readonly<Record<string, Json>>) => {
  const seen = new Set<string>()
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item)
      return
    }
    if (!isJsonObject(value)) return
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string" && inner.startsWith(componentPrefix)) {
        const name = inner.slice(componentPrefix.length)
        if (!seen.has(name)) {
          seen.add(name)
          visit(components[name])
        }
      } else visit(inner)
    }
  }
  roots.forEach(visit)
  return seen
}

interface Row {
  readonly api: DescribedApi
  readonly path: string
  readonly operationId: string
  readonly request: Schema.Top
  readonly response: Schema.Top
  readonly headSuccess: boolean
}

/** The OpenAPI 3.1 document of the operation tables given, for a gateway reached at `publicBaseUrl`. */
export const openApiDocument = (
  apis: ReadonlyArray<DescribedApi>,
  publicBaseUrl: string,
  examples: RecordedExamples = recordedExamples,
) => {
  const rows: ReadonlyArray<Row> = apis.flatMap((api) =>
    Object.entries(api.operations).map(([path, row]) => ({
      api,
      path,
      operationId: operationIdOf(api.basePath, path),
      request: row.request,
      response: row.response,
      headSuccess: row.headSuccess === true,
    })),
  )
  const shared = sharedComponents()
  const { schemas } = compileSchemas([ResponseHead, ...rows.flatMap((row) => [row.request, row.response])])
  const [head, ...rowSchemas] = schemas
  const components: Record<string, Json> = {}
  const addComponent = (name: string, schema: Json | undefined) => {
    if (schema === undefined || name in components) throw new Error(`OpenAPI: component ${name} is missing or twice`)
    components[name] = schema
  }
  const headProperties = (head?.properties ?? {}) as Record<string, Json>
  addComponent(
    "ResponseHead",
    finished({
      ...head,
      properties: { ...headProperties, code: headCodeSchema() },
      description: "The outcome of a request.",
    }),
  )
  for (const [name, { schema, side }] of Object.entries(shared.schemas))
    addComponent(name, finished(side === "request" ? closedObjects(schema) : schema, name))
  const notifications = notificationWebhooks(shared)
  for (const [name, schema] of Object.entries(notifications.schemas)) addComponent(name, finished(schema))

  const paths = Object.fromEntries(
    rows.map((row, i) => {
      const fullPath = `${row.api.basePath}${row.path}`
      const bizContentName = `${row.operationId}.bizContent`
      const bodyName = `${row.operationId}.body`
      const optional = bizContentOptional(row.request)
      const bizContent = rowSchemas[2 * i] ?? {}
      addComponent(
        bizContentName,
        finished(
          closedObjects(shared.withRefs(optional ? withoutBranches(bizContent, isNullType) : bizContent, "request")),
        ),
      )
      addComponent(bodyName, finished(shared.withRefs(rowSchemas[2 * i + 1] ?? {}, "answer")))
      const example = examples[fullPath]
      const signedJson = (description: string, schema: Json, answerExample?: unknown) => ({
        description,
        headers: { sign: { $ref: "#/components/headers/Sign" } },
        content: {
          [jsonContentType]: withoutUndefined({ schema, example: answerExample }),
        },
      })
      const codes = codesOf(row.api, row.path)
      return [
        fullPath,
        {
          post: {
            operationId: row.operationId,
            summary: summaryOf(row.path),
            description: `${operationDescriptions[fullPath] ?? ""}\n\nCodes it answers in head.code:\n\n${codeLines(codes)}`,
            tags: [tagOf(row.api, row.path)],
            parameters: [{ $ref: "#/components/parameters/ApiVersion" }],
            requestBody: {
              required: true,
              content: {
                [jsonContentType]: {
                  schema: requestEnvelope(bizContentName, optional),
                  ...withoutUndefined({ example: example?.request }),
                },
              },
            },
            responses: {
              "200": signedJson(
                "The answer, signed: success with body, or a business or protocol error in head.",
                answerEnvelope(bodyName, codes, row.headSuccess),
                example?.answer,
              ),
              "413": signedJson("The body is larger than the gateway's limit (head only).", headOnly),
              "500": signedJson("An unexpected failure: SYSTEM_ERROR with a traceCode to quote (head only).", headOnly),
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
              description: `The same operation as \`${api.basePath}${path}\` (the official PHP SDK prefixes every path with \`/acquire2\`): the same grant, rate limit and answer.\n\n${post.description}`,
              "x-alias-of": `${api.basePath}${path}`,
            },
          },
        ]
      }),
    ),
  )

  const tags = [...new Set([...rows.map((row) => tagOf(row.api, row.path)), "notifications"])].map((name) =>
    withoutUndefined({ name, description: tagDescriptions[name] }),
  )

  // Shared shapes only one side uses (a request-side order, say) are left out.
  const used = referencedComponents([paths, notifications.webhooks, components.ResponseHead], components)
  const usedComponents = Object.fromEntries(Object.entries(components).filter(([name]) => used.has(name)))

  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    info: {
      title: "Mizan merchant payment, refund and payout API",
      version: apiVersion,
      description: serviceDescription(notifications.scheduleText),
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    servers: [{ url: publicBaseUrl, description: "This gateway." }],
    security: [{ PartnerId: [], Signature: [] }],
    tags,
    paths: { ...paths, ...aliasPaths },
    webhooks: notifications.webhooks,
    components: {
      schemas: usedComponents,
      securitySchemes,
      parameters: {
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
            "Standard Base64 of the service's SHA256withRSA (RSA PKCS#1 v1.5 over SHA-256) signature of the exact raw response body bytes: verify it with the service's public key before reading the answer.",
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
      const gateway = yield* ApiSettings
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
