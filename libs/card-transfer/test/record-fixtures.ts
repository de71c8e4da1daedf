/**
 * Records the replay fixture once, through the real decider:
 *
 *   npx node test/record-fixtures.ts
 *
 * The file is data from then on: fixtures.spec.ts decodes and folds it.
 * When an event's shape changes, keep the old file and record a new one
 * beside it; never re-record an old version.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { fils } from "@mizan/kernel"
import { Result } from "effect"
import { BankCardTransfer, CardNumber, legalNameShape } from "../src/index.ts"
import { at, sha256 } from "./support.ts"

const t0 = at("2026-03-01T10:00:00Z")
const t1 = at("2026-03-01T10:05:00Z")
const t2 = at("2026-03-02T09:00:00Z")

const place = (merchantOrderNo: string, corporate: boolean): BankCardTransfer.PlaceBankCardTransfer => {
  const clear = corporate ? "5555555555554444" : "4111111111111111"
  return {
    _tag: "PlaceBankCardTransfer",
    merchantId: "M1",
    orderNo: `C-${merchantOrderNo}`,
    requestTime: t0,
    now: t0,
    request: {
      merchantOrderNo,
      ...(corporate
        ? { accountHolderType: "CORPORATE" as const, companyName: sha256("Emirates Trading LLC") }
        : {
            accountHolderType: "INDIVIDUAL" as const,
            firstName: sha256("AISHA"),
            middleName: sha256("FATIMA"),
            lastName: sha256("AL MANSOURI"),
          }),
      amountFils: fils(50_000),
      memo: "payout",
      notifyUrl: "https://merchant.example/card",
      expiryYear: "2028",
      expiryMonth: "09",
    },
    cardNumber: new CardNumber(clear, sha256(clear)),
    ...(corporate ? { companyNameShape: legalNameShape("Emirates Trading LLC") } : {}),
    enabledProducts: ["TRANSFER_TO_BANK_CARD"],
    feePlan: { basisPoints: 150, fixedFils: fils(100) },
    payerFeeMemberId: "100000000099",
  }
}
const outcome = (recorded: BankCardTransfer.CardPayoutOutcome): BankCardTransfer.Command => ({
  _tag: "RecordCardPayoutOutcome",
  merchantId: "M1",
  now: t1,
  outcome: recorded,
})
const refund: BankCardTransfer.Command = { _tag: "RecordPayoutRefund", merchantId: "M1", now: t2 }

const streams: ReadonlyArray<readonly [string, ReadonlyArray<BankCardTransfer.Command>]> = [
  ["K-success", [place("K-success", false), outcome({ _tag: "Paid", bankReference: "VD26060A1" })]],
  ["K-created", [place("K-created", true)]],
  ["K-failure", [place("K-failure", false), outcome({ _tag: "Failed", failDes: "Payout network timeout" }), refund]],
  ["K-bank-fail", [place("K-bank-fail", true), outcome({ _tag: "BankDeclined", failDes: "Card issuer declined" })]],
]

const { aggregate } = BankCardTransfer
const recorded = streams.map(([merchantOrderNo, commands]) => {
  let state = aggregate.initialState
  const events: Array<BankCardTransfer.Event> = []
  for (const command of commands) {
    const decided = aggregate.decide(command, state)
    if (Result.isFailure(decided)) throw new Error(`${merchantOrderNo}: ${String(decided.failure)}`)
    events.push(...decided.success)
    state = decided.success.reduce(aggregate.evolve, state)
  }
  return { streamId: BankCardTransfer.streamId("M1", merchantOrderNo), events: events.map(aggregate.codec.encode) }
})

writeFileSync(
  join(import.meta.dirname, "fixtures", "bankCardTransfer.events.json"),
  `${JSON.stringify({ streams: recorded }, null, 2)}\n`,
)
