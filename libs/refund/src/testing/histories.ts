/**
 * Whole refund-order histories for a platform's property tests, decided by
 * the real `RefundOrder.aggregate`: well-formed details (`validRefundDetails`), command
 * sequences against one refund order (`refundCommands`), the histories they
 * make (`validRefundHistories`) and the same with late retries
 * (`refundRetries`). The laws they must keep are in `laws.ts`.
 */

import { validHistories, withRetries } from "@mizan/eventsourcing/testing/properties"
import { fils, type Timestamp, timestamp, withoutUndefined } from "@mizan/kernel"
import fc from "fast-check"
import { refundOrder } from "../aggregate.ts"
import type { Command, RefundDetails } from "../commands.ts"
import { refundCommand } from "./steps.ts"

/** The merchant of the refunds made here. */
export const refundMerchantId = "M0001"
/** 2026-01-01T00:00:00Z: the first time a command of the sequences here may carry. */
export const refundsFrom: Timestamp = timestamp(1_767_225_600_000)

/**
 * Details of a refund as an acquiring order reserves them: an amount up to
 * AED 10,000, its parts over the payee, up to three sharing members and the
 * fee account summing to it exactly, with or without a reason.
 *
 *   fc.property(validRefundDetails, (details) => expect(myRefundRow(details).total).toBe(details.amountFils))
 */
export const validRefundDetails: fc.Arbitrary<RefundDetails> = fc
  .record({
    weights: fc.array(fc.nat({ max: 100 }), { minLength: 2, maxLength: 5 }),
    amount: fc.oneof(fc.constantFrom(1, 1_000_000), fc.integer({ min: 1, max: 1_000_000 })),
    cause: fc.constantFrom("REQUEST" as const, "REVOKE" as const),
    reason: fc.option(fc.constantFrom("damaged", "late"), { nil: undefined }),
  })
  .map(({ weights, amount, cause, reason }): RefundDetails => {
    // The payee takes what the other parts leave, so the parts always sum to the amount.
    const total = weights.reduce((a, b) => a + b, 0) || 1
    const [feeWeight = 0, ...memberWeights] = weights.slice(1)
    const share = (weight: number) => Math.floor((amount * weight) / total)
    const members = memberWeights.map((weight, i) => ({
      sharingIdentitySeqId: i + 1,
      sharingMemo: `share ${i + 1}`,
      sharingAmountFils: fils(share(weight)),
      sharingSettledAmountFils: fils(share(weight)),
    }))
    const fee = share(feeWeight)
    const payee = amount - fee - members.reduce((a, m) => a + m.sharingSettledAmountFils, 0)
    return {
      cause,
      originMerchantOrderNo: "ORDER-1",
      originOrderNo: "SVC-ORDER-1",
      refundMerchantOrderNo: "REFUND-1",
      amountFils: fils(amount),
      payeeRefundFils: fils(payee),
      feeRefundedFils: fils(fee),
      sharingInfoList: members,
      ...withoutUndefined({ reason }),
    }
  })

/**
 * Sequences of commands against one refund order: creations with its
 * details, other details or parts one fils off; settlements, completions
 * and failures, by its merchant or another, within 48 hours.
 *
 *   fc.property(refundCommands, (commands) => myRefundWorker.run(commands))
 */
export const refundCommands: fc.Arbitrary<ReadonlyArray<Command>> = validRefundDetails.chain((details) =>
  fc.array(refundCommand(refundMerchantId, details, refundsFrom), { minLength: 1, maxLength: 12 }),
)

/**
 * Histories of `refundCommands`, decided by the real refund order.
 *
 *   fc.property(validRefundHistories, (h) => void refundLifecycleHolds(h.events))
 */
export const validRefundHistories = validHistories(refundOrder, refundCommands)

/**
 * `validRefundHistories` with accepted commands sent again, right after or
 * after later ones (a bank's report delivered twice, a late retry).
 *
 *   fc.property(refundRetries, (h) => retriesDecideNothing(RefundOrder.aggregate)(h.commands))
 */
export const refundRetries = withRetries(refundOrder, refundCommands)
