/**
 * Mizan's `/testing` entries as this project installs them (from the
 * tarballs, with this project's own fast-check as their peer): each loads,
 * its arbitraries run under `@fast-check/vitest`, and its laws hold on the
 * histories it makes. What a platform team relies on before it writes a
 * property of its own code.
 */
import { fc, it } from "@fast-check/vitest"
import { BankCardTransfer } from "@mizan/card-transfer"
import { cardNumbersNeverWritten, validCardTransferHistories } from "@mizan/card-transfer/testing"
import { refundLifecycleHolds, refundRulesHold, validRefundHistories } from "@mizan/refund/testing"
import { WalletTransfer } from "@mizan/transfer"
import { retriesDecideNothing, walletLimitsHold, walletRetries } from "@mizan/transfer/testing"
import { describe, expect } from "vitest"

describe("Mizan's testing entries, installed from the tarballs", () => {
  it.prop([validRefundHistories], { numRuns: 30 })("refund: the rules and the lifecycle hold", (history) => {
    refundRulesHold(history.appends)
    refundLifecycleHolds(history.events)
  })

  it.prop([walletRetries], { numRuns: 30 })(
    "transfer: the wallet limits hold and a retry decides nothing",
    (history) => {
      walletLimitsHold(history.appends)
      retriesDecideNothing(WalletTransfer.aggregate)(history.commands)
    },
  )

  it.prop([validCardTransferHistories], { numRuns: 30 })(
    "card-transfer: no clear card number is ever written",
    (history) => {
      cardNumbersNeverWritten(history)
      expect(BankCardTransfer.invariants(history.state)).toEqual([])
    },
  )

  it("shrinks the kit's arbitraries with this project's fast-check: one copy, found through the peer dependency", () => {
    const failure = (() => {
      try {
        fc.assert(
          fc.property(validRefundHistories, (h) => h.events.length < 2),
          { seed: 1 },
        )
      } catch (error) {
        return String(error)
      }
      return ""
    })()
    expect(failure).toContain("Shrunk")
  })
})
