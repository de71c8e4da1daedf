import { AcquiringOrder } from "@mizan/acquiring"
import { BankCardTransfer } from "@mizan/card-transfer"
import { Notification } from "@mizan/notification"
import { RefundOrder } from "@mizan/refund"
import { BankTransfer, MemberAccount, VamDeposit, WalletTransfer } from "@mizan/transfer"
import { describe, expect, it } from "vitest"
import { aggregateOf, orderIndexStreamId, registry } from "../src/index.ts"

describe("the registry", () => {
  // Built with each lib's own stream id function, so that a renamed prefix breaks this test, not the audit.
  const streams: ReadonlyArray<readonly [string, string]> = [
    [AcquiringOrder.streamId("M1", "ORDER/1-a"), "acquiring"],
    [RefundOrder.streamId("M1", "REFUND-1"), "refund"],
    [RefundOrder.streamId("M1", "ORDER-1", "REVOKE"), "refund"],
    [WalletTransfer.streamId("M1", "W/1"), "walletTransfer"],
    [BankTransfer.streamId("M1", "B-1"), "bankTransfer"],
    [BankCardTransfer.streamId("M1", "C-1"), "bankCardTransfer"],
    [VamDeposit.streamId("M1", "V-1"), "vamDeposit"],
    [MemberAccount.streamId("a".repeat(64)), "memberAccount"],
    [MemberAccount.directoryOutageStreamId("M1"), "sandboxMemberDirectory"],
    [Notification.streamId("n-1"), "notification"],
    [orderIndexStreamId("M1", "20260101000000100000000001"), "orderIndex"],
  ]

  it("recognises the stream of every aggregate by its id", () => {
    for (const [streamId, kind] of streams) expect([streamId, aggregateOf(streamId)?.kind]).toEqual([streamId, kind])
  })

  it("owns each stream by exactly one entry", () => {
    for (const [streamId] of streams) expect(registry.filter((entry) => entry.owns(streamId))).toHaveLength(1)
  })

  it("owns no stream of a kind it does not know", () => {
    expect(aggregateOf("budget-1")).toBeUndefined()
  })
})
