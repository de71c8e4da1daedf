import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { it } from "@effect/vitest"
import { type Fils, type Timestamp, timestamp } from "@mizan/kernel"
import {
  type AcquireOrder,
  decryptField,
  encodeNotificationOrder,
  encodeResponseBody,
  failureResponse,
  type GeneratedKeyPair,
  generateKeyPair,
  notificationBody,
  sign,
  stringifyJson,
} from "@mizan/protocol"
import { Effect, Result } from "effect"
import { afterAll, beforeAll, beforeEach, describe, expect, vi } from "vitest"
import {
  MalformedResponse,
  type MerchantClient,
  type MerchantClientOptions,
  makeMerchantClient,
  makeNotificationLog,
  NotificationRejected,
  ResponseSignatureError,
  ServiceRefused,
  TransportError,
} from "../src/index.ts"
import { type ServiceStub, startServiceStub, successAnswer } from "./service-stub.ts"

const now = 1_700_000_000_000
const merchant: GeneratedKeyPair = generateKeyPair()
let stub: ServiceStub
let client: MerchantClient

const order: AcquireOrder = {
  requestTime: now as Timestamp,
  merchantOrderNo: "M-1",
  orderNo: "13000001",
  status: "CREATED",
  product: "Basic Payment Gateway",
  totalAmount: 10050 as Fils,
  payeeMid: "200000000002",
  expiredTime: (now + 7_200_000) as Timestamp,
  subject: "Coffee",
  paySceneCode: "PAYPAGE",
  revoked: "false",
}

/** A call's failure; a call that succeeds fails the test. */
const failureOf = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<E> =>
  Effect.flip(effect).pipe(
    Effect.mapError(() => new Error("expected the call to fail")),
    Effect.orDie,
  )

beforeAll(async () => {
  stub = await startServiceStub(merchant)
  client = makeMerchantClient({
    baseUrl: `${stub.baseUrl}/`,
    partnerId: "200000000002",
    merchantPrivateKeyPem: merchant.privateKeyPem,
    servicePublicKeyPem: stub.service.publicKeyPem,
    clock: () => now,
  })
})

afterAll(() => stub.close())

beforeEach(() => {
  stub.received.length = 0
})

describe("calling an operation", () => {
  it.effect("signs the exact bytes it sends, with the protocol's headers", () =>
    Effect.gen(function* () {
      stub.answer = successAnswer("/acquire2/getOrder", { acquireOrder: order })
      yield* client.call("/acquire2/getOrder", { merchantOrderNo: "M-1" })
      const [request] = stub.received
      expect(request?.path).toBe("/sgs/api/acquire2/getOrder")
      expect(request?.signatureValid).toBe(true)
      expect(request?.headers).toMatchObject({
        "partner-id": "200000000002",
        "content-type": "application/json",
        "api-version": "v1",
      })
      expect(JSON.parse(request?.text ?? "")).toEqual({ requestTime: now, bizContent: { merchantOrderNo: "M-1" } })
    }),
  )

  it.effect("decodes a good signed response, amounts in fils", () =>
    Effect.gen(function* () {
      stub.answer = successAnswer("/acquire2/getOrder", { acquireOrder: order })
      const body = yield* client.call("/acquire2/getOrder", { orderNo: "13000001" })
      expect(body.acquireOrder.totalAmount).toBe(10050)
      expect(body.acquireOrder.status).toBe("CREATED")
    }),
  )

  it.effect("answers the head beside the body when asked, so that a success's traceCode can be quoted", () =>
    Effect.gen(function* () {
      const head = { applyStatus: "SUCCESS", code: "0", msg: "SUCCESS", traceCode: "5e4ebe5a40ff26ca" } as const
      stub.answer = {
        kind: "raw",
        text: stringifyJson({ head, body: encodeResponseBody("/acquire2/getOrder", { acquireOrder: order }) }),
      }
      const answer = yield* client.callWithHead("/acquire2/getOrder", { merchantOrderNo: "M-1" })
      expect(answer.head).toEqual(head)
      expect(answer.body.acquireOrder.totalAmount).toBe(10050)
    }),
  )

  it.effect("sends amounts as JSON numbers and reads the create-order answer", () =>
    Effect.gen(function* () {
      stub.answer = successAnswer("/acquire2/placeOrder", {
        acquireOrder: order,
        interactionParams: { tokenUrl: "https://pay.example/t/1" },
      })
      const body = yield* client.call("/acquire2/placeOrder", {
        merchantOrderNo: "M-1",
        subject: "Coffee",
        totalAmount: { amount: 100.5, currency: "AED" },
        paySceneCode: "PAYPAGE",
      })
      expect(stub.received[0]?.text).toContain('"totalAmount":{"amount":100.5,"currency":"AED"}')
      expect(body.interactionParams?.tokenUrl).toBe("https://pay.example/t/1")
    }),
  )

  it.effect("answers a created order's head.success as the boolean true, the way PayBy's documentation shows it", () =>
    Effect.gen(function* () {
      stub.answer = successAnswer("/acquire2/placeOrder", { acquireOrder: order })
      const { head } = yield* client.callWithHead("/acquire2/placeOrder", {
        merchantOrderNo: "M-1",
        subject: "Coffee",
        totalAmount: { amount: 100.5, currency: "AED" },
        paySceneCode: "PAYPAGE",
      })
      const success: boolean = head.success
      expect(success).toBe(true)
    }),
  )

  it.effect("takes a create-order answer whose head lacks success for no answer of the service's", () =>
    Effect.gen(function* () {
      const head = { applyStatus: "SUCCESS", code: "0", msg: "SUCCESS" } as const
      stub.answer = {
        kind: "raw",
        text: stringifyJson({ head, body: encodeResponseBody("/acquire2/placeOrder", { acquireOrder: order }) }),
      }
      const error = yield* failureOf(
        client.call("/acquire2/placeOrder", {
          merchantOrderNo: "M-1",
          subject: "Coffee",
          totalAmount: { amount: 100.5, currency: "AED" },
          paySceneCode: "PAYPAGE",
        }),
      )
      expect(error).toBeInstanceOf(MalformedResponse)
      expect(error.message).toContain("head.success must be true")
    }),
  )

  it.effect("sends no bizContent for an operation that takes none", () =>
    Effect.gen(function* () {
      stub.answer = successAnswer("/transfer/getFundoutAbilityList", {
        fundoutAbilityList: [{ countryCode: "UAE", networkCode: "LOCAL", name: "UAEFTS", beneficiaryType: "IBAN" }],
      })
      const body = yield* client.call("/transfer/getFundoutAbilityList")
      expect(body.fundoutAbilityList).toHaveLength(1)
      expect(JSON.parse(stub.received[0]?.text ?? "")).toEqual({ requestTime: now })
    }),
  )

  it.effect("surfaces a business error with its code and message", () =>
    Effect.gen(function* () {
      stub.answer = {
        kind: "envelope",
        envelope: failureResponse("REFUND_AMOUNT_EXCEEDED", "amount exceeds the refundable 10.00"),
      }
      const error = yield* failureOf(
        client.call("/acquire2/refund/placeOrder", {
          refundMerchantOrderNo: "R-1",
          originMerchantOrderNo: "M-1",
          amount: { amount: 20, currency: "AED" },
        }),
      )
      expect(error).toBeInstanceOf(ServiceRefused)
      expect(error).toMatchObject({
        applyStatus: "FAIL",
        code: "62006",
        msg: "REFUND_AMOUNT_EXCEEDED: amount exceeds the refundable 10.00",
      })
      expect((error as ServiceRefused).codeName).toBe("REFUND_AMOUNT_EXCEEDED")
      expect((error as ServiceRefused).messageName).toBe("REFUND_AMOUNT_EXCEEDED")
    }),
  )

  it.effect("tells the three meanings of code 400 apart by the message name, with a detail after it", () =>
    Effect.gen(function* () {
      for (const name of ["INVALID_PARAMETER", "REQUESTTIME_TOO_EARLY", "REQUESTTIME_TOO_LATER"] as const) {
        stub.answer = { kind: "envelope", envelope: failureResponse(name, "requestTime is 16 minutes away") }
        const error = (yield* failureOf(
          client.call("/acquire2/getOrder", { merchantOrderNo: "M-1" }),
        )) as ServiceRefused
        expect([error.code, error.messageName, error.codeName]).toEqual(["400", name, name])
      }
    }),
  )

  it.effect("has no message name for a msg that does not start with one", () =>
    Effect.gen(function* () {
      stub.answer = {
        kind: "envelope",
        envelope: { head: { applyStatus: "FAIL", code: "400", msg: "something else: entirely" } },
      }
      const error = (yield* failureOf(client.call("/acquire2/getOrder", { merchantOrderNo: "M-1" }))) as ServiceRefused
      expect([error.messageName, error.codeName]).toEqual([undefined, undefined])
    }),
  )

  it.effect("names a shared code by its message", () =>
    Effect.gen(function* () {
      stub.answer = { kind: "envelope", envelope: failureResponse("REQUESTTIME_TOO_EARLY") }
      const error = (yield* failureOf(client.call("/acquire2/getOrder", { merchantOrderNo: "M-1" }))) as ServiceRefused
      expect([error.code, error.codeName]).toEqual(["400", "REQUESTTIME_TOO_EARLY"])
    }),
  )

  it.effect("surfaces applyStatus ERROR when the service cannot verify the request", () =>
    Effect.gen(function* () {
      const impostor = makeMerchantClient({
        baseUrl: stub.baseUrl,
        partnerId: "200000000002",
        merchantPrivateKeyPem: generateKeyPair().privateKeyPem,
        servicePublicKeyPem: stub.service.publicKeyPem,
      })
      const error = yield* failureOf(impostor.call("/acquire2/getOrder", { merchantOrderNo: "M-1" }))
      expect(error).toMatchObject({ _tag: "ServiceRefused", applyStatus: "ERROR" })
    }),
  )

  it.effect("refuses an unsigned response without reading it", () =>
    Effect.gen(function* () {
      stub.answer = { kind: "unsigned" }
      const error = yield* failureOf(client.call("/acquire2/getOrder", { merchantOrderNo: "M-1" }))
      expect(error).toBeInstanceOf(ResponseSignatureError)
      expect(error).toMatchObject({ reason: "missing" })
    }),
  )

  it.effect("refuses a tampered response", () =>
    Effect.gen(function* () {
      stub.answer = { kind: "tampered", body: encodeResponseBody("/acquire2/getOrder", { acquireOrder: order }) }
      const error = yield* failureOf(client.call("/acquire2/getOrder", { merchantOrderNo: "M-1" }))
      expect(error).toMatchObject({ _tag: "ResponseSignatureError", reason: "invalid" })
    }),
  )

  it.effect("refuses a response signed with a key other than the service's", () =>
    Effect.gen(function* () {
      stub.answer = { kind: "foreign-signature", body: { acquireOrder: {} } }
      const error = yield* failureOf(client.call("/acquire2/getOrder", { merchantOrderNo: "M-1" }))
      expect(error).toMatchObject({ _tag: "ResponseSignatureError", reason: "invalid" })
    }),
  )

  it.effect("reports a signed body that is not the operation's, naming the field", () =>
    Effect.gen(function* () {
      stub.answer = {
        kind: "raw",
        text: '{"head":{"applyStatus":"SUCCESS","code":"0"},"body":{"acquireOrder":{"status":"PAID"}}}',
      }
      const error = yield* failureOf(client.call("/acquire2/getOrder", { merchantOrderNo: "M-1" }))
      expect(error).toBeInstanceOf(MalformedResponse)
      expect((error as MalformedResponse).detail).toContain("body.acquireOrder.status")
    }),
  )

  it.effect("reports an unsigned HTTP error as a transport failure with its status", () =>
    Effect.gen(function* () {
      stub.answer = { kind: "http-error", status: 502 }
      const error = yield* failureOf(client.call("/acquire2/getOrder", { merchantOrderNo: "M-1" }))
      expect(error).toMatchObject({ _tag: "TransportError", httpStatus: 502 })
    }),
  )

  it.effect("reports an unreachable service as a transport failure", () =>
    Effect.gen(function* () {
      // A port that was just free: nothing listens on it.
      const probe = createServer()
      yield* Effect.promise(() => new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve)))
      const { port } = probe.address() as AddressInfo
      yield* Effect.promise(() => new Promise((resolve) => probe.close(resolve)))
      const offline = makeMerchantClient({
        baseUrl: `http://127.0.0.1:${port}`,
        partnerId: "200000000002",
        merchantPrivateKeyPem: merchant.privateKeyPem,
        servicePublicKeyPem: stub.service.publicKeyPem,
      })
      const error = yield* failureOf(offline.call("/acquire2/getOrder", { merchantOrderNo: "M-1" }))
      expect(error).toBeInstanceOf(TransportError)
      expect(error).toMatchObject({ reason: "request failed: ECONNREFUSED" })
    }),
  )

  // The client's timeout is the fetch's own (AbortSignal.timeout), in real time: the test waits the 100 ms.
  it.effect("gives up on a service that does not answer within the timeout", () =>
    Effect.gen(function* () {
      stub.answer = { kind: "silent" }
      const impatient = makeMerchantClient({
        baseUrl: stub.baseUrl,
        partnerId: "200000000002",
        merchantPrivateKeyPem: merchant.privateKeyPem,
        servicePublicKeyPem: stub.service.publicKeyPem,
        requestTimeoutMs: 100,
      })
      const error = yield* failureOf(impatient.call("/acquire2/getOrder", { merchantOrderNo: "M-1" }))
      expect(error).toMatchObject({ _tag: "TransportError", reason: "no response within 100 ms" })
    }),
  )

  /** A client of the stub with these options besides. */
  const clientOnStub = (options: Partial<MerchantClientOptions>) =>
    makeMerchantClient({
      baseUrl: stub.baseUrl,
      partnerId: "200000000002",
      merchantPrivateKeyPem: merchant.privateKeyPem,
      servicePublicKeyPem: stub.service.publicKeyPem,
      ...options,
    })

  it.effect("refuses a response larger than its bound", () =>
    Effect.gen(function* () {
      stub.answer = successAnswer("/acquire2/getOrder", { acquireOrder: order })
      const small = clientOnStub({ responseMaxBytes: 64 })
      const error = yield* failureOf(small.call("/acquire2/getOrder", { merchantOrderNo: "M-1" }))
      expect(error).toMatchObject({ _tag: "TransportError", reason: "response larger than 64 bytes" })
    }),
  )

  it.effect("still reads responseBytesMax, the bound's name before its unit went last, with a warning", () =>
    Effect.gen(function* () {
      stub.answer = successAnswer("/acquire2/getOrder", { acquireOrder: order })
      const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {})
      const small = clientOnStub({ responseBytesMax: 64 })
      const warnings = warn.mock.calls.map(([warning]) => warning)
      warn.mockRestore()
      expect(warnings).toEqual([
        "merchant client options: responseBytesMax is now responseMaxBytes: the old name is still read, for now; write the new one",
      ])
      const error = yield* failureOf(small.call("/acquire2/getOrder", { merchantOrderNo: "M-1" }))
      expect(error).toMatchObject({ _tag: "TransportError", reason: "response larger than 64 bytes" })
    }),
  )

  it("encrypts a field so that only the service's private key opens it", () => {
    const cipher = client.encryptField("4111111111111111")
    expect(Result.getOrThrow(decryptField(cipher, stub.service.privateKey))).toBe("4111111111111111")
  })
})

describe("calling a sandbox helper", () => {
  it.effect("signs it as an operation is signed and answers the body as the service wrote it", () =>
    Effect.gen(function* () {
      stub.answer = { kind: "success", body: { now: now + 60_000, offsetMinutes: 1 } }
      const body = yield* client.sandbox("advanceClock", { minutes: 1 })
      const [request] = stub.received
      expect(request?.path).toBe("/sgs/sandbox/advanceClock")
      expect(request?.signatureValid).toBe(true)
      expect(request?.headers).toMatchObject({ "partner-id": "200000000002", "content-type": "application/json" })
      expect(JSON.parse(request?.text ?? "")).toEqual({ requestTime: now, bizContent: { minutes: 1 } })
      expect(body).toEqual({ now: now + 60_000, offsetMinutes: 1 })
    }),
  )

  it.effect("takes the helper's path as the docs write it, with its leading slash", () =>
    Effect.gen(function* () {
      stub.answer = { kind: "success", body: { now, offsetMinutes: 0 } }
      yield* client.sandbox("/getClock")
      expect(stub.received[0]?.path).toBe("/sgs/sandbox/getClock")
      expect(JSON.parse(stub.received[0]?.text ?? "")).toEqual({ requestTime: now })
    }),
  )

  it.effect("surfaces the service's refusal of a helper as a call's", () =>
    Effect.gen(function* () {
      stub.answer = { kind: "envelope", envelope: failureResponse("MERCHANT_ORDER_NO_NOT_EXIST", "no such order") }
      const error = yield* failureOf(client.sandbox("payOrder", { merchantOrderNo: "M-404" }))
      expect(error).toBeInstanceOf(ServiceRefused)
      expect((error as ServiceRefused).codeName).toBe("MERCHANT_ORDER_NO_NOT_EXIST")
    }),
  )

  it.effect("refuses a helper's answer signed with a key other than the service's", () =>
    Effect.gen(function* () {
      stub.answer = { kind: "foreign-signature", body: { now, offsetMinutes: 0 } }
      const error = yield* failureOf(client.sandbox("getClock"))
      expect(error).toMatchObject({ _tag: "ResponseSignatureError", reason: "invalid" })
    }),
  )
})

describe("receiving a notification", () => {
  const notificationOf = (notifyId: string) =>
    notificationBody(
      {
        notifyId,
        orderKey: "acquireOrder",
        order: encodeNotificationOrder("acquireOrder", { ...order, status: "PAID_SUCCESS" }),
      },
      timestamp(now),
    )

  it("verifies and decodes a good notification", () => {
    const body = notificationOf("N-1")
    const notification = Result.getOrThrow(
      client.verifyNotification({ Sign: sign(body, stub.service.privateKey) }, Buffer.from(body)),
    )
    expect(notification).toMatchObject({ notifyId: "N-1", notifyTimestamp: now, orderKey: "acquireOrder" })
    expect(notification.orderKey === "acquireOrder" && notification.order.totalAmount).toBe(10050)
  })

  it("refuses a tampered notification", () => {
    const body = notificationOf("N-2")
    const tampered = body.replace('"PAID_SUCCESS"', '"SETTLED"')
    const result = client.verifyNotification({ sign: sign(body, stub.service.privateKey) }, tampered)
    expect(Result.isFailure(result) && result.failure).toBeInstanceOf(NotificationRejected)
    expect(Result.isFailure(result) && result.failure.reason).toBe("bad-signature")
  })

  it("refuses an unsigned notification", () => {
    const result = client.verifyNotification({}, notificationOf("N-3"))
    expect(Result.isFailure(result) && result.failure.reason).toBe("unsigned")
  })

  it("refuses a signed body that is not a notification", () => {
    const body = '{"notify_id":"N-4"}'
    const result = client.verifyNotification({ sign: sign(body, stub.service.privateKey) }, body)
    expect(Result.isFailure(result) && result.failure.reason).toBe("malformed")
  })

  it("drops a repeated notify_id once it is handled", () => {
    const log = makeNotificationLog()
    const body = notificationOf("N-5")
    const headers = { sign: sign(body, stub.service.privateKey) }
    const first = Result.getOrThrow(client.verifyNotification(headers, body))
    expect(log.isDuplicate(first.notifyId)).toBe(false)
    log.markHandled(first.notifyId)
    const again = Result.getOrThrow(client.verifyNotification(headers, body))
    expect(log.isDuplicate(again.notifyId)).toBe(true)
  })

  it("handles again a notification whose handling failed (it was never marked)", () => {
    const log = makeNotificationLog()
    expect(log.isDuplicate("N-6")).toBe(false)
    expect(log.isDuplicate("N-6")).toBe(false)
  })

  it("forgets the oldest ids beyond its capacity", () => {
    const log = makeNotificationLog(2)
    for (const id of ["a", "b", "c"]) log.markHandled(id)
    expect([log.isDuplicate("a"), log.isDuplicate("b"), log.isDuplicate("c")]).toEqual([false, true, true])
  })
})
