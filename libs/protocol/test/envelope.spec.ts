import { codeOf, issueMessage } from "@mizan/kernel"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  decodeResponseBody,
  encodeResponseBody,
  failureResponse,
  isSuccessHead,
  RequestEnvelope,
  ResponseEnvelopeWire,
  readHeader,
  signatureErrorResponse,
  stringifyJson,
  successResponse,
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
    expect(response.head.msg).toBe("bizContent.subject must be at most 12 characters")
    const long = failureResponse("SYSTEM_ERROR", "x".repeat(500), "trace-1")
    expect(long.head.msg).toHaveLength(200)
    expect(long.head).toMatchObject({ code: codeOf("SYSTEM_ERROR"), traceCode: "trace-1" })
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

  it.each([
    [{}, "requestTime is required"],
    [{ requestTime: "1700000000000" }, "requestTime must be a number"],
    [{ requestTime: "1.7e12" }, "requestTime must be a number"],
  ])("refuses %j naming requestTime", (value, message) => {
    const result = decode(value)
    expect(Result.isFailure(result) && issueMessage(result.failure.issue)).toBe(message)
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
