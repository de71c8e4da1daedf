/**
 * The OpenAPI description: served, complete, and true to the wire. Samples
 * built from the spec's tables (libs/protocol/test/samples.ts) and real
 * answers and notifications of the gateway validate against it (with the
 * small validator of jsonSchemaValidator.ts); Redocly's recommended rules
 * find nothing in it; every field and operation says what it means; the
 * codes each operation lists are the ones its sources decide.
 */
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { type CodeName, codeCatalogue, codeNames, paySceneCodes } from "@mizan/kernel"
import {
  notificationOrderKeys,
  operationAliases,
  operationPaths,
  operations,
  successResponse,
  withHeadSuccess,
} from "@mizan/protocol"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { requestSamples, responseSamples } from "../../../libs/protocol/test/samples.ts"
import { handlers } from "../src/handlers/index.ts"
import { commonCodes, operationCodes, sandboxCodes, unroutedCodes } from "../src/openapi/codes.ts"
import { openApiDocument } from "../src/openapi.ts"
import { merchantApi } from "../src/pipeline/pipeline.ts"
import { sandboxApi } from "../src/sandbox/index.ts"
import { aed, ok, placeOrder, placePaidOrder, sandbox } from "./calls.ts"
import { merchantKeys, newNumber, startGateway, type TestGateway } from "./harness.ts"
import { type JsonSchema, validate } from "./jsonSchemaValidator.ts"
import { startMerchantEndpoint } from "./merchantEndpoint.ts"
import { postSigned } from "./raw.ts"

// --- The document ------------------------------------------------------------

interface Document {
  readonly openapi: string
  readonly security: ReadonlyArray<Record<string, ReadonlyArray<string>>>
  readonly paths: Readonly<Record<string, { readonly post: Operation }>>
  readonly webhooks: Readonly<
    Record<string, { readonly post: Operation & { readonly "x-retry-schedule-minutes": unknown } }>
  >
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>
    readonly securitySchemes: Readonly<
      Record<
        string,
        { readonly type: string; readonly in: string; readonly name: string; readonly description: string }
      >
    >
  }
  readonly info: { readonly description: string }
}

interface Operation {
  readonly description: string
  readonly parameters: ReadonlyArray<{ readonly $ref?: string; readonly name?: string; readonly in?: string }>
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

  it("says of resetClock what it does: refuses a moved clock, which never goes back", () => {
    expect(document.paths["/sgs/sandbox/resetClock"]?.post.description).toContain("refuses a moved one")
  })

  it("leaves the sandbox out of a production gateway's description", () => {
    const production = openApiDocument([merchantApi(handlers)], "https://pay.example")
    expect(Object.keys(production.paths).every((path) => path.startsWith("/sgs/api/"))).toBe(true)
    expect(Object.keys(production.paths)).toHaveLength(operationPaths.length + Object.keys(operationAliases).length)
  })

  it("secures every operation with the Partner-Id and sign schemes, which say exactly what is signed and how", () => {
    const { PartnerId, Signature } = document.components.securitySchemes
    expect(PartnerId).toMatchObject({ type: "apiKey", in: "header", name: "Partner-Id" })
    expect(Signature).toMatchObject({ type: "apiKey", in: "header", name: "sign" })
    for (const words of ["raw bytes", "SHA256withRSA", "PKCS#1 v1.5 over SHA-256", "Base64", "answer is signed too"])
      expect(Signature?.description).toContain(words)
    expect(document.security).toEqual([{ PartnerId: [], Signature: [] }])
    // The headers are the schemes', never parameters beside them.
    for (const [path, { post }] of Object.entries(document.paths))
      expect(
        post.parameters.filter((p) => p.in === "header" && ["Partner-Id", "sign"].includes(p.name ?? "")),
        path,
      ).toEqual([])
  })

  it("finds nothing to report with Redocly's recommended rules", () => {
    const folder = mkdtempSync(join(tmpdir(), "mizan-openapi-"))
    try {
      const file = join(folder, "openapi.json")
      writeFileSync(file, JSON.stringify(document))
      const cli = join(dirname(createRequire(import.meta.url).resolve("@redocly/cli/package.json")), "bin", "cli.js")
      const run = spawnSync(process.execPath, [cli, "lint", file, "--format=json"], {
        encoding: "utf8",
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      })
      const report = JSON.parse(run.stdout) as { totals: object; problems: ReadonlyArray<unknown> }
      expect(report.problems).toEqual([])
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }, 60_000)

  it("says what every operation does, and what every field of every schema means", () => {
    for (const [path, { post }] of Object.entries(document.paths))
      expect(post.description.split("\n")[0], path).toMatch(/^[A-Z].{20,}/)
    const undescribed: Array<string> = []
    const visit = (schema: unknown, at: string): void => {
      if (Array.isArray(schema)) {
        schema.forEach((item, i) => {
          visit(item, `${at}[${i}]`)
        })
        return
      }
      if (typeof schema !== "object" || schema === null) return
      const properties = (schema as { properties?: Record<string, { description?: string }> }).properties ?? {}
      for (const [name, property] of Object.entries(properties))
        if (typeof property.description !== "string" || property.description.length === 0)
          undescribed.push(`${at}.${name}`)
      for (const [key, inner] of Object.entries(schema)) visit(inner, `${at}.${key}`)
    }
    visit(document.components.schemas, "components")
    visit(document.paths, "paths")
    expect(undescribed).toEqual([])
  })
})

describe("components", () => {
  it("are referenced for money, timestamps and the order objects, never repeated inline", () => {
    const text = JSON.stringify(document.paths)
    expect(text).not.toContain('"currency":{')
    expect(text).not.toContain("8640000000000000")
    const getOrder = document.components.schemas["api.acquire2.getOrder.body"] as {
      properties: { acquireOrder: object }
    }
    expect(getOrder.properties.acquireOrder).toMatchObject({ $ref: "#/components/schemas/AcquireOrder" })
    const placeOrder = document.components.schemas["api.acquire2.placeOrder.bizContent"] as {
      properties: Record<string, object>
    }
    expect(placeOrder.properties.totalAmount).toMatchObject({ $ref: "#/components/schemas/RequestMoney" })
    expect(placeOrder.properties.expiredTime).toMatchObject({ $ref: "#/components/schemas/Timestamp" })
  })

  it("lists the scene codes, the bank transfer statuses, the wallet fail codes and the IBAN name match's level and result as enums, and head.code as the code catalogue, every code explained", () => {
    const placeOrder = document.components.schemas["api.acquire2.placeOrder.bizContent"] as {
      properties: { paySceneCode: { enum: Array<string> } }
    }
    expect(placeOrder.properties.paySceneCode.enum).toEqual([...paySceneCodes])
    const enumOf = (component: string, field: string) =>
      (document.components.schemas[component] as { properties: Record<string, { enum?: Array<string> }> }).properties[
        field
      ]?.enum
    expect(enumOf("TransferToBankOrder", "status")).toEqual(["CREATED", "SUCCESS", "FAILURE"])
    expect(enumOf("TransferOrder", "failCode")).toContain("BENEFICIARY_NOT_FOUND")
    const holderName = "api.transfer.getIbanHolderName.body"
    const ibanHolderName = (document.components.schemas[holderName] as { properties: Record<string, JsonSchema> })
      .properties.ibanHolderName as { properties: Record<string, { enum?: Array<string> }> }
    expect(ibanHolderName.properties.nameMatchingLevel?.enum).toEqual(["1", "2", "3", "4"])
    expect(ibanHolderName.properties.nameMatchingResult?.enum).toEqual(["TRUE", "FALSE"])
    const code = (
      document.components.schemas.ResponseHead as { properties: { code: { enum: Array<string>; description: string } } }
    ).properties.code
    expect(new Set(code.enum)).toEqual(new Set(Object.values(codeCatalogue).map((entry) => entry.code)))
    for (const entry of Object.values(codeCatalogue))
      expect(code.description).toContain(`\`${entry.code}\` ${entry.message}: ${entry.meaning}`)
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

  it("takes an amount as a JSON number or its decimal text, and answers amounts as numbers only", () => {
    const { RequestMoney, Money } = document.components.schemas as Record<string, { properties: { amount: unknown } }>
    expect(RequestMoney?.properties.amount).toMatchObject({
      anyOf: [{ type: "number" }, { type: "string", pattern: "^[0-9]{1,12}(\\.[0-9]{1,2})?$" }],
    })
    expect(Money?.properties.amount).toMatchObject({ type: "number" })
    const answers = Object.entries(document.components.schemas).filter(
      ([name]) => name.endsWith(".body") || (!name.includes(".") && !name.startsWith("Request")),
    )
    for (const [name, schema] of answers) expect(JSON.stringify(schema), name).not.toMatch(/"type":"string"[^}]*\}\]/)
    expect(JSON.stringify(document)).not.toMatch(/"(NaN|Infinity)"/)
  })

  it("closes every request object, so that a misspelt field is refused, while the service ignores it", async () => {
    const requestSchemas = Object.entries(document.components.schemas).filter(
      ([name]) => name.endsWith(".bizContent") || name.startsWith("Request"),
    )
    const open: Array<string> = []
    const visit = (schema: unknown, at: string): void => {
      if (typeof schema !== "object" || schema === null) return
      const node = schema as Record<string, unknown>
      if ((node.type === "object" || "properties" in node) && node.additionalProperties !== false) open.push(at)
      for (const [key, inner] of Object.entries(node)) visit(inner, `${at}.${key}`)
    }
    for (const [name, schema] of requestSchemas) visit(schema, name)
    expect(open).toEqual([])
    const sample = requestSamples()["/acquire2/placeOrder"] as Record<string, unknown>
    expect(requestProblems("/sgs/api/acquire2/placeOrder", { ...sample, merchantOrderN0: "x" })).toEqual([
      "$.bizContent.merchantOrderN0: no value is allowed",
    ])
    // The service itself still takes the field it does not know (the official SDKs send some).
    const body = await ok(gateway.merchant(), "/acquire2/placeOrder", {
      merchantOrderNo: newNumber("closed"),
      subject: "Typo",
      totalAmount: aed(5),
      paySceneCode: "PAYPAGE",
      merchantOrderN0: "x",
    } as never)
    expect(body.acquireOrder.status).toBe("CREATED")
  })

  it("takes no bizContent for the payout ability list, and refuses a null one as the gateway does", () => {
    expect(requestProblems("/sgs/api/transfer/getFundoutAbilityList", undefined)).toEqual([])
    expect(requestProblems("/sgs/api/transfer/getFundoutAbilityList", null)).not.toEqual([])
  })

  const answerSchemaOf = (path: string) =>
    document.paths[`/sgs/api${path}`]?.post.responses["200"]?.content["application/json"].schema ?? {}

  it("accepts the response sample of every operation against its body schema", () => {
    for (const path of operationPaths) {
      const answer = successResponse(responseSamples[path])
      const envelope = operations[path].headSuccess ? withHeadSuccess(answer) : answer
      expect(validate(answerSchemaOf(path), envelope, resolveIn(document)), path).toEqual([])
    }
  })

  it("requires head.success, a boolean, of a create order's answer, as the service always sends it", () => {
    const created = successResponse(responseSamples["/acquire2/placeOrder"])
    const validateCreated = (envelope: unknown) =>
      validate(answerSchemaOf("/acquire2/placeOrder"), envelope, resolveIn(document))
    expect(validateCreated(created)).toEqual(["$.head.success: is required"])
    expect(validateCreated({ ...created, head: { ...created.head, success: "true" } })).not.toEqual([])
    expect(validateCreated(withHeadSuccess(created))).toEqual([])
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

/** What the description says of a field of a component. */
const descriptionOf = (component: string, field: string) =>
  (document.components.schemas[component] as { properties: Record<string, { description?: string }> }).properties[field]
    ?.description

describe("a refund order's reserved", () => {
  it("is said to be the refund's orderNo, as the gateway answers it, whatever the request's reserved", async () => {
    const originMerchantOrderNo = await placePaidOrder(gateway, { amount: 10 })
    const { refundOrder } = await ok(gateway.merchant(), "/acquire2/refund/placeOrder", {
      refundMerchantOrderNo: newNumber("r"),
      originMerchantOrderNo,
      amount: aed(1),
      reserved: "the merchant's note",
    } as never)
    expect(refundOrder.reserved).toBe(refundOrder.orderNo)
    expect(descriptionOf("RefundOrder", "reserved")).toContain("orderNo")
  })
})

describe("an order's revoked", () => {
  it("is said to be true for a paid order revoked only, as the gateway answers it", async () => {
    const unpaid = await ok(gateway.merchant(), "/acquire2/revokeOrder", {
      merchantOrderNo: await placeOrder(gateway, { amount: 3 }),
    })
    expect(unpaid.acquireOrder).toMatchObject({ status: "FAILURE", failCode: "ORDER_REVOKED", revoked: "false" })
    const paid = await ok(gateway.merchant(), "/acquire2/revokeOrder", {
      merchantOrderNo: await placePaidOrder(gateway, { amount: 3 }),
    })
    expect(paid.acquireOrder).toMatchObject({ failCode: "ORDER_REVOKED", revoked: "true" })
    expect(descriptionOf("AcquireOrder", "revoked")).toContain("paid")
  })
})

describe("an answer's money and times", () => {
  it("are described as a split payment and a bank card transfer answer them", async () => {
    const client = gateway.merchant()
    const merchantOrderNo = await placePaidOrder(gateway, {
      amount: 100,
      extra: {
        sharingParamList: [
          {
            sharingIdentitySeqId: 1,
            sharingIdentityType: "MEMBER_ID",
            sharingIdentity: createHash("sha256").update("MEMBER-1").digest("hex"),
            sharingMemo: "share",
            sharingAmount: aed(30),
          },
        ],
      },
    })
    const { acquireOrder } = await ok(client, "/acquire2/getOrder", { merchantOrderNo })
    // 100 paid, 30 to the share: the payee's settlement is the rest less its fee, not the paid amount less the fee.
    const fee = acquireOrder.paymentInfo?.payeeFeeAmount ?? 0
    expect(acquireOrder.paymentInfo?.settlementAmount).toBe(7_000 - fee)
    const paymentInfo = (
      document.components.schemas.AcquireOrder as {
        properties: Record<string, { properties?: Record<string, JsonSchema> }>
      }
    ).properties.paymentInfo?.properties as Record<string, { description?: string }>
    expect(paymentInfo.settlementAmount?.description).toContain("share")
    // A bank card transfer is deducted when placed: paidTime is there while it is CREATED.
    const { transferToBankCard } = await ok(client, "/transfer/placeTransferToBankCard", {
      merchantOrderNo: newNumber("card"),
      accountHolderType: "CORPORATE",
      companyName: client.encryptField("Acme Trading LLC"),
      amount: aed(10),
      expiryYear: client.encryptField(String(new Date().getUTCFullYear() + 2)),
      expiryMonth: client.encryptField("07"),
      cardNumber: client.encryptField("4111111111111111"),
    } as never)
    expect(transferToBankCard).toMatchObject({ status: "CREATED", paidTime: expect.any(Number) })
    expect(descriptionOf("TransferBankCardOrder", "paidTime")).toContain("deducted")
  })
})

describe("digests", () => {
  /** The fields of an answered object whose value is a 64-character hex digest. */
  const digestFieldsOf = (order: Record<string, unknown>) =>
    Object.entries(order).flatMap(([name, value]) =>
      typeof value === "string" && /^[0-9a-f]{64}$/.test(value) ? [name] : [],
    )

  it("are said to be digests wherever an answer carries one in place of the value", async () => {
    const client = gateway.merchant()
    const { transferToBankOrder } = await ok(client, "/transfer/placeTransferToBankOrder", {
      merchantOrderNo: newNumber("digest"),
      holderName: client.encryptField("Amal Saeed"),
      iban: client.encryptField("AE070331234567890123456"),
      beneficiaryAddress: client.encryptField("Office 12, Al Quoz 3, Dubai"),
      accountNo: client.encryptField("0331234567890123456"),
      amount: aed(5),
      memo: "digests",
    } as never)
    const deposit = await sandbox(client, "postDeposit", {
      amount: aed(5),
      status: "SUCCESS",
      remitterInfo: "Some Trading LLC",
      collectIBAN: "AE070331234567890123456",
    })
    const answered = [
      ["TransferToBankOrder", transferToBankOrder as unknown as Record<string, unknown>],
      ["VamDepositOrder", (deposit.body as unknown as { vamDepositOrder: Record<string, unknown> }).vamDepositOrder],
    ] as const
    for (const [component, order] of answered) {
      expect(digestFieldsOf(order).length, component).toBeGreaterThan(1)
      for (const field of digestFieldsOf(order)) expect(descriptionOf(component, field), field).toContain("SHA-256")
    }
  })
})

describe("webhooks", () => {
  it("describe every kind of notification: its body, its sign header, the acknowledgement and the retry schedule", () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...notificationOrderKeys].sort())
    for (const key of notificationOrderKeys) {
      const post = document.webhooks[key]?.post
      if (post === undefined) throw new Error(`no webhook for ${key}`)
      const name = `${key.charAt(0).toUpperCase()}${key.slice(1)}Notification`
      expect(post.requestBody.content["application/json"].schema).toEqual({ $ref: `#/components/schemas/${name}` })
      const body = document.components.schemas[name] as { properties: Record<string, unknown>; required: Array<string> }
      expect(body.required).toEqual(expect.arrayContaining(["notify_id", "notify_timestamp", key]))
      expect(post.parameters).toContainEqual(expect.objectContaining({ name: "sign", in: "header", required: true }))
      expect(post.responses["200"]).toMatchObject({
        content: {
          "application/json": { schema: { properties: { response: { enum: ["SUCCESS"] } } } },
          "text/plain": { schema: { enum: ["SUCCESS"] } },
        },
      })
      // The spec's schedule: at once, then 2, 10, 10, 60, 120, 360 and 900 minutes after the previous attempt.
      expect(post["x-retry-schedule-minutes"]).toEqual([0, 2, 12, 22, 82, 202, 562, 1462])
      expect(post.description).toContain("+0, +2, +12, +22, +82, +202, +562, +1462 minutes")
    }
  })

  it("describe the notification a merchant really receives", async () => {
    const endpoint = await startMerchantEndpoint()
    try {
      const merchantOrderNo = newNumber("hook")
      await ok(gateway.merchant(), "/acquire2/placeOrder", {
        merchantOrderNo,
        subject: "Webhook",
        totalAmount: aed(12.5),
        paySceneCode: "PAYPAGE",
        notifyUrl: endpoint.url,
      })
      expect((await sandbox(gateway.merchant(), "payOrder", { merchantOrderNo })).head.code).toBe("0")
      await expect.poll(() => endpoint.bodies.length, { timeout: 10_000 }).toBeGreaterThan(0)
      const schema = document.webhooks.acquireOrder?.post.requestBody.content["application/json"].schema ?? {}
      for (const body of endpoint.bodies) expect(validate(schema, body, resolveIn(document))).toEqual([])
    } finally {
      await endpoint.close()
    }
  })
})

describe("the codes each operation lists", () => {
  const sourceFolders = ["libs", "apps/gateway/src"]
  const repository = fileURLToPath(new URL("../../../", import.meta.url))
  /** Every TypeScript source under a lib's src or the gateway's src, tests and testing helpers aside. */
  const sources = (folder: string): Array<string> =>
    readdirSync(folder).flatMap((entry) => {
      const path = join(folder, entry)
      if (statSync(path).isDirectory())
        return ["node_modules", "test", "testing", "dist"].includes(entry) ? [] : sources(path)
      return path.endsWith(".ts") && !path.endsWith(".spec.ts") ? [path] : []
    })
  /** Code names a source decides: a catalogue name in quotes, outside the catalogue and the description itself. */
  const decidedNames = (): Set<CodeName> => {
    const names = new Set<CodeName>()
    for (const file of sourceFolders.flatMap((folder) => sources(join(repository, folder)))) {
      if (/kernel\/src\/codes\.ts$|gateway\/src\/openapi\//.test(file)) continue
      const text = readFileSync(file, "utf8")
      for (const name of codeNames) if (text.includes(`"${name}"`)) names.add(name)
    }
    return names
  }
  const listed = new Set<CodeName>([
    ...commonCodes,
    ...unroutedCodes,
    ...sandboxCodes,
    ...Object.values(operationCodes).flat(),
  ])

  it("cover every code the sources decide, and list none that nothing decides", () => {
    const decided = decidedNames()
    expect([...decided].filter((name) => !listed.has(name))).toEqual([])
    expect([...listed].filter((name) => !decided.has(name) && name !== "SUCCESS")).toEqual([])
  })

  it("narrow each operation's head.code to its codes, and explain them in its description", () => {
    for (const path of operationPaths) {
      const post = document.paths[`/sgs/api${path}`]?.post
      if (post === undefined) throw new Error(`no operation at ${path}`)
      const answer = post.responses["200"]?.content["application/json"].schema as {
        properties: { head: { allOf: Array<{ properties?: { code?: { enum: Array<string> } } }> } }
      }
      const head = answer.properties.head
      const codes = new Set([...commonCodes, ...operationCodes[path]].map((name) => codeCatalogue[name].code))
      expect(new Set(head.allOf[1]?.properties?.code?.enum), path).toEqual(codes)
      for (const name of operationCodes[path]) expect(post.description, path).toContain(` ${name}: `)
    }
  })
})
