import { maxNestingDepth, parsePublicKey, sign, verify } from "@mizan/protocol"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { authenticate } from "../src/pipeline/pipeline.ts"
import { merchantKeys, startGateway, testConfig, testMerchant } from "./harness.ts"
import { postRaw, postSigned } from "./raw.ts"
import { suiteGateway } from "./suiteGateway.ts"
import { startProductionGateway } from "./transferSupport.ts"

const orderPath = "/sgs/api/acquire2/getOrder"

const gateway = suiteGateway(() =>
  startGateway({
    config: testConfig({
      bodyLimitBytes: 4096,
      merchants: [
        testMerchant("M1"),
        testMerchant("LIMITED", { grants: ["/acquire2/getOrder"] }),
        testMerchant("SLOW", { rateLimit: { requestsPerSecond: 0.001, burstRequests: 2 } }),
      ],
    }),
  }),
)

const key = (partnerId: string) => merchantKeys(partnerId).privateKey
const envelope = (bizContent: unknown, requestTime = Date.now()) => JSON.stringify({ requestTime, bizContent })

describe("the envelope pipeline", () => {
  it("signs every answer over its raw bytes with the service key, business errors included", async () => {
    const answer = await postSigned(
      `${gateway.baseUrl}${orderPath}`,
      envelope({ merchantOrderNo: "none" }),
      "M1",
      key("M1"),
    )
    expect(answer.status).toBe(200)
    expect(answer.json.head).toMatchObject({ applyStatus: "FAIL", code: "62004" })
    expect(answer.json.head.traceCode).toMatch(/^[0-9a-f]{16}$/)
    expect(answer.json.body).toBeUndefined()
    expect(verify(answer.text, answer.sign, parsePublicKey(gateway.servicePublicKeyPem))).toBe(true)
  })

  it("answers applyStatus ERROR when the signature is wrong or missing", async () => {
    const body = envelope({ merchantOrderNo: "x" })
    const forged = await postSigned(`${gateway.baseUrl}${orderPath}`, body, "M1", key("LIMITED"))
    expect(forged.json.head).toMatchObject({ applyStatus: "ERROR", code: "403" })
    const unsigned = await postRaw(`${gateway.baseUrl}${orderPath}`, body, { "Partner-Id": "M1" })
    expect(unsigned.json.head.applyStatus).toBe("ERROR")
    expect(unsigned.json.head.msg).toContain("header sign is required")
    // A signature over other bytes (the same JSON re-serialised) does not verify either.
    const reordered = await postRaw(`${gateway.baseUrl}${orderPath}`, body.replace("requestTime", "requestTime "), {
      "Partner-Id": "M1",
      sign: (await import("@mizan/protocol")).sign(body, key("M1")),
    })
    expect(reordered.json.head.applyStatus).toBe("ERROR")
  })

  it("answers a create order's head.success as the documentation shows it: true when created, false when refused", async () => {
    const createPath = `${gateway.baseUrl}/sgs/api/acquire2/placeOrder`
    const order = (merchantOrderNo: string) => ({
      merchantOrderNo,
      subject: "Coffee",
      totalAmount: { amount: 10, currency: "AED" },
      paySceneCode: "PAYPAGE",
    })
    const created = await postSigned(createPath, envelope(order(`success-${Date.now()}`)), "M1", key("M1"))
    expect(created.json.head).toMatchObject({ applyStatus: "SUCCESS", code: "0", success: true })
    const { subject: _, ...withoutSubject } = order(`refused-${Date.now()}`)
    const refused = await postSigned(createPath, envelope(withoutSubject), "M1", key("M1"))
    expect(refused.json.head).toMatchObject({ applyStatus: "FAIL", code: "400", success: false })
    const forged = await postSigned(createPath, envelope(order(`forged-${Date.now()}`)), "M1", key("M2"))
    expect(forged.json.head).toMatchObject({ applyStatus: "ERROR", code: "403", success: false })
  })

  it("answers no head.success where the documentation's pages show none (get order)", async () => {
    const answer = await postSigned(
      `${gateway.baseUrl}${orderPath}`,
      envelope({ merchantOrderNo: "none" }),
      "M1",
      key("M1"),
    )
    expect(answer.json.head.code).toBe("62004")
    expect(answer.json.head).not.toHaveProperty("success")
  })

  it("reads headers in any letter case", async () => {
    const body = envelope({ merchantOrderNo: "none" })
    const answer = await postRaw(`${gateway.baseUrl}${orderPath}`, body, {
      "partner-id": "M1",
      SIGN: (await import("@mizan/protocol")).sign(body, key("M1")),
    })
    expect(answer.json.head.code).toBe("62004")
  })

  it("refuses a missing, overlong or unknown Partner-Id", async () => {
    const body = envelope({ merchantOrderNo: "x" })
    const missing = await postRaw(`${gateway.baseUrl}${orderPath}`, body, {})
    expect(missing.json.head).toMatchObject({
      applyStatus: "FAIL",
      code: "400",
      msg: "INVALID_PARAMETER: header Partner-Id is required",
    })
    const long = await postRaw(`${gateway.baseUrl}${orderPath}`, body, { "Partner-Id": "M123456789012" })
    expect(long.json.head.msg).toBe("INVALID_PARAMETER: header Partner-Id must be at most 12 characters")
  })

  it("answers an unknown Partner-Id exactly as a signature that does not verify, so no partner id can be probed", async () => {
    const body = envelope({ merchantOrderNo: "x" })
    const { traceCode: _, ...unknown } = (await postSigned(`${gateway.baseUrl}${orderPath}`, body, "NOBODY", key("M1")))
      .json.head
    const { traceCode: __, ...forged } = (await postSigned(`${gateway.baseUrl}${orderPath}`, body, "M1", key("M2")))
      .json.head
    expect(unknown).toEqual(forged)
    expect(unknown).toMatchObject({ applyStatus: "ERROR", code: "403", msg: expect.stringMatching(/^UNAUTHORIZED: /) })
    expect(unknown.msg).not.toContain("NOBODY")
    // Said of both truly: an unknown id has no key on file, so none verifies (not "the keys are not a pair").
    expect(unknown.msg).toBe(
      "UNAUTHORIZED: request signature verification failed: no public key on file for this Partner-Id verifies the sign header over the raw body",
    )
  })

  it("checks the signature of an unknown Partner-Id too, so that its refusal takes as long as a forged signature's", async () => {
    const body = new TextEncoder().encode(envelope({ merchantOrderNo: "x" }))
    const request = (partnerId: string, signer: string) => ({
      path: orderPath,
      headers: { "Partner-Id": partnerId, sign: sign(body, key(signer)) },
      body,
    })
    const unknownId = request("NOBODY", "M1")
    const forgedSignature = request("M1", "M2")
    const timed = (asked: typeof unknownId) =>
      Effect.gen(function* () {
        const startedMs = performance.now()
        const refused = yield* Effect.flip(authenticate(asked))
        return { ms: performance.now() - startedMs, head: refused.head }
      })
    const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0
    // A timing property, not a benchmark: skipping the RSA check answers an unknown id in about a
    // tenth of a forged signature's time. Interleaved pairs and medians keep a loaded machine's
    // pauses out of the comparison; the bound is loose (half) so that only a skipped check fails it.
    const pairs = await gateway.run(
      Effect.forEach(Array.from({ length: 101 }), () => Effect.all([timed(unknownId), timed(forgedSignature)])),
    )
    expect(pairs[0]?.[0].head).toEqual(pairs[0]?.[1].head)
    const unknownMs = median(pairs.map(([unknown]) => unknown.ms))
    const forgedMs = median(pairs.map(([, forged]) => forged.ms))
    expect(unknownMs).toBeGreaterThan(forgedMs / 2)
  })

  it("refuses a requestTime more than 15 minutes away, either way, even when replayed with a valid signature", async () => {
    const now = Date.now()
    const stale = await postSigned(
      `${gateway.baseUrl}${orderPath}`,
      envelope({ merchantOrderNo: "x" }, now - 16 * 60_000),
      "M1",
      key("M1"),
    )
    expect(stale.json.head).toMatchObject({ code: "400", msg: expect.stringContaining("before") })
    expect(stale.json.head.msg).toContain("minutes")
    const early = await postSigned(
      `${gateway.baseUrl}${orderPath}`,
      envelope({ merchantOrderNo: "x" }, now + 16 * 60_000),
      "M1",
      key("M1"),
    )
    expect(early.json.head.msg).toContain("after")
    const fresh = await postSigned(
      `${gateway.baseUrl}${orderPath}`,
      envelope({ merchantOrderNo: "x" }, now - 14 * 60_000),
      "M1",
      key("M1"),
    )
    expect(fresh.json.head.code).toBe("62004")
  })

  it("answers REQUESTTIME_TOO_EARLY and REQUESTTIME_TOO_LATER by name", async () => {
    const now = Date.now()
    const past = await postSigned(`${gateway.baseUrl}${orderPath}`, envelope({}, now - 3_600_000), "M1", key("M1"))
    expect(past.json.head.msg).toMatch(/^REQUESTTIME_TOO_EARLY: requestTime is more than 15 minutes before/)
    const future = await postSigned(`${gateway.baseUrl}${orderPath}`, envelope({}, now + 3_600_000), "M1", key("M1"))
    expect(future.json.head.msg).toMatch(/^REQUESTTIME_TOO_LATER: requestTime is more than 15 minutes after/)
  })

  it("says a requestTime in seconds is seconds, still REQUESTTIME_TOO_EARLY by name", async () => {
    const seconds = Math.floor(Date.now() / 1000)
    const answer = await postSigned(`${gateway.baseUrl}${orderPath}`, envelope({}, seconds), "M1", key("M1"))
    expect(answer.json.head).toMatchObject({
      code: "400",
      msg: `REQUESTTIME_TOO_EARLY: requestTime is more than 15 minutes before the service's time: ${seconds} reads as ${new Date(seconds).toISOString()}; send milliseconds since 1970, not seconds`,
    })
  })

  it("refuses malformed JSON and a missing requestTime with 400, naming what is wrong", async () => {
    const broken = await postSigned(`${gateway.baseUrl}${orderPath}`, "{not json", "M1", key("M1"))
    expect(broken.status).toBe(200)
    expect(broken.json.head).toMatchObject({ code: "400", msg: expect.stringContaining("not valid JSON") })
    const deepBody = `{"bizContent":${"[".repeat(2_000)}${"]".repeat(2_000)}}`
    const deep = await postSigned(`${gateway.baseUrl}${orderPath}`, deepBody, "M1", key("M1"))
    expect(deep.json.head).toMatchObject({
      code: "400",
      msg: `INVALID_PARAMETER: body nests arrays and objects more than ${maxNestingDepth} deep`,
    })
    const noTime = await postSigned(
      `${gateway.baseUrl}${orderPath}`,
      JSON.stringify({ bizContent: {} }),
      "M1",
      key("M1"),
    )
    expect(noTime.json.head.msg).toBe("INVALID_PARAMETER: requestTime is required")
    for (const notAnObject of ['"text"', "[]", "null", "12"]) {
      const answer = await postSigned(`${gateway.baseUrl}${orderPath}`, notAnObject, "M1", key("M1"))
      expect(answer.json.head).toMatchObject({ code: "400", msg: "INVALID_PARAMETER: body must be an object" })
    }
  })

  it("answers 403 UNAUTHORIZED for an operation not granted to the merchant", async () => {
    const answer = await postSigned(
      `${gateway.baseUrl}/sgs/api/acquire2/cancelOrder`,
      envelope({ merchantOrderNo: "x" }),
      "LIMITED",
      key("LIMITED"),
    )
    expect(answer.json.head).toMatchObject({ applyStatus: "FAIL", code: "403" })
    const granted = await postSigned(
      `${gateway.baseUrl}${orderPath}`,
      envelope({ merchantOrderNo: "x" }),
      "LIMITED",
      key("LIMITED"),
    )
    expect(granted.json.head.code).toBe("62004")
  })

  it("answers 402 RATE_LIMIT_REJECT once a merchant is over its rate", async () => {
    const codes: Array<string> = []
    for (let i = 0; i < 4; i++)
      codes.push(
        (await postSigned(`${gateway.baseUrl}${orderPath}`, envelope({ merchantOrderNo: "x" }), "SLOW", key("SLOW")))
          .json.head.code,
      )
    expect(codes).toEqual(["62004", "62004", "402", "402"])
  })

  it("answers 404 SERVICE_NOT_AVAILABLE for a path that is no operation", async () => {
    const answer = await postSigned(`${gateway.baseUrl}/sgs/api/acquire2/nothing`, envelope({}), "M1", key("M1"))
    expect(answer.json.head).toMatchObject({
      code: "404",
      msg: "SERVICE_NOT_AVAILABLE: no operation at /sgs/api/acquire2/nothing",
    })
  })

  it.each(["GET", "PUT", "DELETE", "PATCH"])(
    "answers %s on an API path 405 with Allow: POST, signed",
    async (method) => {
      const response = await fetch(`${gateway.baseUrl}${orderPath}`, { method })
      expect(response.status).toBe(405)
      expect(response.headers.get("allow")).toBe("POST")
      const text = await response.text()
      expect(JSON.parse(text).head).toMatchObject({
        code: "400",
        msg: expect.stringMatching(/^INVALID_PARAMETER: .*POST/),
      })
      expect(verify(text, response.headers.get("sign"), parsePublicKey(gateway.servicePublicKeyPem))).toBe(true)
    },
  )

  it("refuses a body whose object names a key twice, naming the key: no two readers may see two orders", async () => {
    const body = `{"requestTime":${Date.now()},"bizContent":{"merchantOrderNo":"dup-1","subject":"x","paySceneCode":"PAYPAGE","totalAmount":{"amount":1,"currency":"AED"},"totalAmount":{"amount":1000,"currency":"AED"}}}`
    const answer = await postSigned(`${gateway.baseUrl}/sgs/api/acquire2/placeOrder`, body, "M1", key("M1"))
    expect(answer.json.head).toMatchObject({
      code: "400",
      msg: 'INVALID_PARAMETER: body names the key "totalAmount" twice in one object',
    })
  })

  it("counts String(n) in characters: a 12-emoji subject is 12 characters; a control character is refused", async () => {
    const place = (subject: string) =>
      postSigned(
        `${gateway.baseUrl}/sgs/api/acquire2/placeOrder`,
        envelope({
          merchantOrderNo: `chars-${Date.now()}-${Math.random()}`,
          subject,
          totalAmount: { amount: 1, currency: "AED" },
          paySceneCode: "PAYPAGE",
        }),
        "M1",
        key("M1"),
      )
    expect((await place("🎁".repeat(12))).json.head.code).toBe("0")
    expect((await place("🎁".repeat(13))).json.head.msg).toBe(
      "INVALID_PARAMETER: bizContent.subject must be at most 12 characters",
    )
    for (const subject of ["bell\u0007", "half \ud83c"]) {
      const answer = await place(subject)
      expect(answer.json.head.msg, subject).toBe(
        "INVALID_PARAMETER: bizContent.subject must be text without control characters (other than tab and newline) or lone surrogates",
      )
    }
  })

  it("reads an amount sent as a JSON string exactly as the number (the PHP SDK's habit), by the same decimal rules", async () => {
    const place = (amount: string) =>
      postSigned(
        `${gateway.baseUrl}/sgs/api/acquire2/placeOrder`,
        `{"requestTime":${Date.now()},"bizContent":{"merchantOrderNo":"str-${Date.now()}-${Math.random()}","subject":"x","paySceneCode":"PAYPAGE","totalAmount":{"amount":${amount},"currency":"AED"}}}`,
        "M1",
        key("M1"),
      )
    const placed = await place('"10.00"')
    expect(placed.json.head.code).toBe("0")
    expect((placed.json.body as { acquireOrder: { totalAmount: unknown } }).acquireOrder.totalAmount).toEqual({
      amount: 10,
      currency: "AED",
    })
    for (const amount of ['"1.005"', '"1e3"', '"-1"', '" 1"', '""'])
      expect((await place(amount)).json.head.msg, amount).toMatch(
        /^INVALID_PARAMETER: bizContent\.totalAmount\.amount must be a decimal amount/,
      )
  })

  it("refuses a body over the size limit with 413 and a signed envelope", async () => {
    const answer = await postSigned(
      `${gateway.baseUrl}${orderPath}`,
      envelope({ merchantOrderNo: "x".repeat(5000) }),
      "M1",
      key("M1"),
    )
    expect(answer.status).toBe(413)
    expect(answer.json.head.msg).toBe("INVALID_PARAMETER: body is larger than 4096 bytes")
    expect(verify(answer.text, answer.sign, parsePublicKey(gateway.servicePublicKeyPem))).toBe(true)
  })

  it("names every broken bizContent field in one answer", async () => {
    const answer = await postSigned(
      `${gateway.baseUrl}/sgs/api/acquire2/placeOrder`,
      envelope({
        merchantOrderNo: "o-1",
        subject: "a subject that is too long",
        totalAmount: { amount: 1, currency: "AED" },
      }),
      "M1",
      key("M1"),
    )
    expect(answer.json.head.code).toBe("400")
    expect(answer.json.head.msg).toContain("bizContent.subject must be at most 12 characters")
    expect(answer.json.head.msg, answer.json.head.msg).toContain("bizContent.paySceneCode is required")
  })

  it("refuses an inexact amount naming the field, and keeps head.msg within its 200 characters", async () => {
    const answer = await postSigned(
      `${gateway.baseUrl}/sgs/api/acquire2/placeOrder`,
      '{"requestTime":' +
        Date.now() +
        ',"bizContent":{"merchantOrderNo":"o-2","subject":"x","paySceneCode":"PAYPAGE","totalAmount":{"amount":1.005,"currency":"AED"}}}',
      "M1",
      key("M1"),
    )
    expect(answer.json.head.msg).toMatch(/^INVALID_PARAMETER: bizContent\.totalAmount\.amount must be a decimal amount/)
    expect(answer.json.head.msg?.length).toBeLessThanOrEqual(200)
  })

  it("takes a body as real clients write it: keys in any order, 0.10, escaped slashes, empty objects, unknown fields never stored", async () => {
    const merchantOrderNo = `raw-${Date.now()}`
    const body = `{"bizContent":{"totalAmount":{"currency":"AED","amount":0.10},"subject":"Raw","paySceneCode":"PAYPAGE","merchantOrderNo":"${merchantOrderNo}","notifyUrl":"https:\\/\\/merchant.example\\/notify","accessoryContent":{"amountDetail":{},"goodsDetail":{},"terminalDetail":{}},"paySceneParams":{},"vendorExtension":{"trace":"x-1"}},"requestTime":${Date.now()}}`
    const answer = await postSigned(`${gateway.baseUrl}/sgs/api/acquire2/placeOrder`, body, "M1", key("M1"), {
      "api-version": "v1",
      "group-name": "shop",
    })
    expect(answer.json.head.code).toBe("0")
    const order = (answer.json.body as { acquireOrder: Record<string, unknown> }).acquireOrder
    expect(order).toMatchObject({
      totalAmount: { amount: 0.1, currency: "AED" },
      notifyUrl: "https://merchant.example/notify",
    })
    const stored = JSON.stringify((await gateway.allEvents()).map((e) => e.data))
    expect(stored).toContain(merchantOrderNo)
    expect(stored).not.toContain("vendorExtension")
  })

  it("treats null fields as absent, as serialisers that write nulls mean", async () => {
    const answer = await postSigned(
      `${gateway.baseUrl}${orderPath}`,
      envelope({ merchantOrderNo: "none", orderNo: null }),
      "M1",
      key("M1"),
    )
    expect(answer.json.head.code).toBe("62004")
  })
})

describe("the sandbox's path on a production gateway", () => {
  const production = suiteGateway(startProductionGateway)

  it("answers a sandbox helper signed, saying the sandbox is served in sandbox mode only", async () => {
    // Not the router's bare 404, which a merchant's client can only read as a broken connection.
    const refusal = await Effect.runPromise(
      Effect.flip(production.merchant().sandbox("payOrder", { merchantOrderNo: "M-1" })),
    )
    expect(refusal).toMatchObject({
      _tag: "ServiceRefused",
      code: "404",
      msg: "SERVICE_NOT_AVAILABLE: no operation at /sgs/sandbox/payOrder: the sandbox API is served in sandbox mode only, and this gateway runs in production mode",
    })
  })
})
