import { codeOf, issueMessage } from "@mizan/kernel"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  decodeResponseBody,
  encodeResponseBody,
  failureResponse,
  instantOfDateTime,
  isSuccessHead,
  RequestEnvelope,
  ResponseEnvelopeWire,
  readHeader,
  signatureErrorResponse,
  stringifyJson,
  successResponse,
  withHeadSuccess,
} from "../src/index.ts"
import { responseSamples } from "./samples.ts"

const envelopeProblem = (value: unknown) => {
  const result = Schema.decodeUnknownResult(ResponseEnvelopeWire)(value)
  return Result.isFailure(result) ? issueMessage(result.failure.issue) : "ok"
}

describe("the response envelope", () => {
  it("carries the body on SUCCESS with code 0", () => {
    const body = encodeResponseBody("/transfer/getFundoutAbilityList", { fundoutAbilityList: [] })
    const response = successResponse(body)
    expect(response).toEqual({
      head: { applyStatus: "SUCCESS", code: "0", msg: "SUCCESS" },
      body: { fundoutAbilityList: [] },
    })
    expect(envelopeProblem(response)).toBe("ok")
  })

  it("answers a business refusal with FAIL, the spec's code and no body", () => {
    const response = failureResponse("REFUND_AMOUNT_EXCEEDED")
    expect(response).toEqual({ head: { applyStatus: "FAIL", code: "62006", msg: "REFUND_AMOUNT_EXCEEDED" } })
    expect(response).not.toHaveProperty("body")
  })

  it("says what was wrong in msg, cut to its 200 characters, with a traceCode when given", () => {
    const response = failureResponse("INVALID_PARAMETER", "bizContent.subject must be at most 12 characters")
    expect(response.head.msg).toBe("INVALID_PARAMETER: bizContent.subject must be at most 12 characters")
    const long = failureResponse("SYSTEM_ERROR", "x".repeat(500), "trace-1")
    expect(long.head.msg).toHaveLength(200)
    expect(long.head.msg).toMatch(/^SYSTEM_ERROR: x+…$/)
    expect(failureResponse("ORDER_PAID").head.msg).toBe("ORDER_PAID")
    expect(long.head).toMatchObject({ code: codeOf("SYSTEM_ERROR"), traceCode: "trace-1" })
  })

  it("adds head.success as a boolean that says what applyStatus and code say, keeping the rest", () => {
    const body = encodeResponseBody("/transfer/getFundoutAbilityList", { fundoutAbilityList: [] })
    expect(withHeadSuccess(successResponse(body))).toEqual({
      head: { applyStatus: "SUCCESS", code: "0", msg: "SUCCESS", success: true },
      body: { fundoutAbilityList: [] },
    })
    expect(withHeadSuccess(failureResponse("ORDER_PAID", undefined, "trace-1")).head).toEqual({
      applyStatus: "FAIL",
      code: "62001",
      msg: "ORDER_PAID",
      traceCode: "trace-1",
      success: false,
    })
    expect(withHeadSuccess(signatureErrorResponse()).head.success).toBe(false)
    expect(envelopeProblem(withHeadSuccess(successResponse(body)))).toBe("ok")
  })

  it("answers a failed request signature with applyStatus ERROR and no body", () => {
    const response = signatureErrorResponse()
    expect(response.head.applyStatus).toBe("ERROR")
    expect(response).not.toHaveProperty("body")
    expect(envelopeProblem(response)).toBe("ok")
  })

  it.each([
    ["FAIL", "62006"],
    ["ERROR", "403"],
    ["SUCCESS", "62006"],
  ])("refuses a body beside applyStatus %s and code %s", (applyStatus, code) => {
    expect(envelopeProblem({ head: { applyStatus, code }, body: {} })).toBe(
      'body must be absent unless head.applyStatus is SUCCESS and head.code is "0"',
    )
  })

  it("tells a success head from every other", () => {
    expect(isSuccessHead({ applyStatus: "SUCCESS", code: "0" })).toBe(true)
    expect(isSuccessHead({ applyStatus: "SUCCESS", code: "62001" })).toBe(false)
    expect(isSuccessHead({ applyStatus: "FAIL", code: "0" })).toBe(false)
  })

  it("writes a response whose amounts are JSON numbers", () => {
    const order = Result.getOrThrow(decodeResponseBody("/acquire2/getOrder", responseSamples["/acquire2/getOrder"]))
    expect(order.acquireOrder.totalAmount).toBe(10050)
    const body = encodeResponseBody("/acquire2/getOrder", order)
    expect(stringifyJson(successResponse(body))).toContain('"totalAmount":{"amount":100.5,"currency":"AED"}')
  })
})

describe("the request envelope", () => {
  const decode = Schema.decodeUnknownResult(RequestEnvelope)

  it("takes requestTime and an undecoded bizContent, dropping anything else", () => {
    expect(Result.getOrThrow(decode({ requestTime: 1700000000000, bizContent: { a: 1 }, extra: 1 }))).toEqual({
      requestTime: 1700000000000,
      bizContent: { a: 1 },
    })
  })

  it("lets bizContent be absent", () => {
    expect(Result.getOrThrow(decode({ requestTime: 1700000000000 }))).toEqual({ requestTime: 1700000000000 })
  })

  it("keeps a partnerId the body repeats, for the pipeline to hold against the header", () => {
    expect(Result.getOrThrow(decode({ requestTime: 1700000000000, partnerId: "M1" }))).toEqual({
      requestTime: 1700000000000,
      partnerId: "M1",
    })
  })

  it.each([
    ["2026-11-24T00:54:42.000+04:00", Date.UTC(2026, 10, 23, 20, 54, 42)],
    ["2026-11-23T20:54:42.000Z", Date.UTC(2026, 10, 23, 20, 54, 42)],
    ["2026-11-23T15:24:42.5-05:30", Date.UTC(2026, 10, 23, 20, 54, 42, 500)],
    ["2026-11-23T20:54:42+00:00", Date.UTC(2026, 10, 23, 20, 54, 42)],
  ])("reads requestTime %s as the instant it names, in milliseconds (the PHP SDK's habit)", (text, ms) => {
    expect(Result.getOrThrow(decode({ requestTime: text }))).toEqual({ requestTime: ms })
  })

  const requestTimeRule =
    "requestTime must be milliseconds since 1970-01-01 as a JSON number, or a date-time with its UTC offset such as 2026-11-24T00:54:42.000+04:00"

  it.each([
    [{}, "requestTime is required"],
    [{ requestTime: "1700000000000" }, requestTimeRule],
    [{ requestTime: "1.7e12" }, requestTimeRule],
    [{ requestTime: "2026-11-24T00:54:42.000" }, requestTimeRule],
    [{ requestTime: "2026-11-24 00:54:42+04:00" }, requestTimeRule],
    [{ requestTime: "2026-02-30T00:54:42.000+04:00" }, requestTimeRule],
    [{ requestTime: "2026-11-24T24:00:00.000+04:00" }, requestTimeRule],
    [{ requestTime: "2026-11-24T00:54:42.000+04:60" }, requestTimeRule],
    [{ requestTime: true }, requestTimeRule],
  ])("refuses %j naming requestTime", (value, message) => {
    const result = decode(value)
    expect(Result.isFailure(result) && issueMessage(result.failure.issue)).toBe(message)
  })

  it("names no instant for text that is not a date-time with an offset", () => {
    expect(instantOfDateTime("2026-11-24")).toBeUndefined()
    expect(instantOfDateTime("2026-11-24T00:54:42.0000+04:00")).toBeUndefined()
  })
})

describe("headers", () => {
  it("reads a header in any letter case from a plain record", () => {
    expect(readHeader({ "partner-id": "200000000002" }, "Partner-Id")).toBe("200000000002")
    expect(readHeader({ "PARTNER-ID": "200000000002" }, "partner-id")).toBe("200000000002")
    expect(readHeader({ Sign: ["a", "b"] }, "sign")).toBe("a")
    expect(readHeader({}, "sign")).toBeUndefined()
  })

  it("reads a header from a fetch Headers", () => {
    expect(readHeader(new Headers({ "Partner-Id": "1" }), "partner-id")).toBe("1")
    expect(readHeader(new Headers(), "sign")).toBeUndefined()
  })
})
