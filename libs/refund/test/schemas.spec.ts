import { issueMessage } from "@mizan/kernel"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Command, eventCodec } from "../src/refundOrder.ts"
import { completeRefund, createRefund, details, failRefund, settleRefund } from "./builders.ts"

/** The message a failed decode gives, or "ok". */
const issueMessageOf = (schema: Schema.Top & Schema.Decoder<unknown>, input: unknown): string => {
  const result = Schema.decodeUnknownResult(schema)(input)
  return Result.isFailure(result) ? issueMessage(result.failure.issue) : "ok"
}

describe("refund commands and events as data", () => {
  it.each([createRefund(), settleRefund(), completeRefund(), failRefund()])(
    "decodes a $_tag command as the command it is",
    (command) => expect(Schema.decodeUnknownSync(Command)(command)).toEqual(command),
  )

  it("refuses a sharing member numbered below 1, naming the field and the rule", () =>
    expect(
      issueMessageOf(
        Command,
        createRefund({
          sharingInfoList: [{ ...(details.sharingInfoList[0] as object), sharingIdentitySeqId: 0 }] as never,
        }),
      ),
    ).toBe("details.sharingInfoList[0].sharingIdentitySeqId must be 1 or more"))

  it("records every event type at schema version 1: a new shape raises its version and brings an upcaster", () =>
    expect(eventCodec.versions).toEqual({
      RefundCreated: { current: 1 },
      RefundSettled: { current: 1 },
      RefundSucceeded: { current: 1 },
      RefundFailed: { current: 1 },
    }))
})
