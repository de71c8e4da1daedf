/**
 * Whole virtual-account deposit histories for a platform's property tests,
 * decided by the real `VamDeposit.aggregate`: the bank's reports of one
 * top-up (PENDING, then SUCCESS or FAILED, or final at once), reports with
 * other details under the same number, with and without late retries. The
 * laws they must keep are in `laws.ts`.
 */
import { validHistories, withRetries } from "@mizan/eventsourcing/testing/properties"
import { fils, timestamp } from "@mizan/kernel"
import fc from "fast-check"
import { aggregate } from "../deposit/aggregate.ts"
import type { Command, DepositStatus } from "../deposit/commands.ts"
import { digestOf } from "./digests.ts"

const reportedFrom = timestamp(Date.UTC(2026, 2, 1, 10))

/**
 * The bank's report of top-up `D-1` to merchant `M1`'s virtual account: a
 * status, AED 2,500 (now and then one fils, or another reference: the same
 * number with other details), within the hour.
 *
 *   fc.property(vamDepositReport, (report) => myTopUpWebhook.accepts(report))
 */
export const vamDepositReport: fc.Arbitrary<Command> = fc
  .record({
    status: fc.constantFrom<DepositStatus>("PENDING", "PENDING", "SUCCESS", "FAILED"),
    amount: fc.constantFrom(250_000, 250_000, 250_000, 1),
    referenceNo: fc.constantFrom("FT-1", "FT-1", "FT-1", "FT-2"),
    minute: fc.nat({ max: 59 }),
  })
  .map(({ status, amount, referenceNo, minute }) => ({
    _tag: "RecordVamDeposit",
    merchantId: "M1",
    now: timestamp(reportedFrom + minute * 60_000),
    deposit: {
      orderNo: "D-1",
      transactionTime: timestamp(reportedFrom + minute * 60_000),
      amountFils: fils(amount),
      status,
      referenceNo,
      remitterInfo: digestOf(20),
      collectIBAN: digestOf(21),
    },
  }))

/**
 * Sequences of the bank's reports of one top-up.
 *
 *   fc.property(vamDepositCommands, (reports) => myTopUpWebhook.run(reports))
 */
export const vamDepositCommands: fc.Arbitrary<ReadonlyArray<Command>> = fc.array(vamDepositReport, {
  minLength: 1,
  maxLength: 8,
})

/**
 * Histories of `vamDepositCommands`, decided by the real deposit.
 *
 *   fc.property(validVamDepositHistories, (h) => void vamDepositLifecycleHolds(h.events))
 */
export const validVamDepositHistories = validHistories(aggregate, vamDepositCommands)

/**
 * `validVamDepositHistories` with accepted reports delivered again later,
 * as banks redeliver webhooks.
 *
 *   fc.property(vamDepositRetries, (h) => retriesDecideNothing(VamDeposit.aggregate)(h.commands))
 */
export const vamDepositRetries = withRetries(aggregate, vamDepositCommands)
