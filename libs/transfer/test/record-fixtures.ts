/**
 * Records the replay fixtures once, through the real deciders:
 *
 *   npx node test/record-fixtures.ts
 *
 * The files are data from then on: fixtures.spec.ts decodes and folds them,
 * proving that what was written still replays. When an event's shape
 * changes, keep the old file and record a new one beside it; never
 * re-record an old version.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Aggregate } from "@mizan/eventsourcing"
import { fils } from "@mizan/kernel"
import { Result } from "effect"
import { BankTransfer, MemberAccount, rate, VamDeposit, WalletTransfer } from "../src/index.ts"
import { placeBankTransfer } from "../src/testing/index.ts"
import { at, sha256 } from "./support.ts"

const record = <Command, Event, State, Error>(
  aggregate: Aggregate<Command, Event, State, Error>,
  streamIdOf: (key: string) => string,
  streams: ReadonlyArray<readonly [string, ReadonlyArray<Command>]>,
) =>
  streams.map(([key, commands]) => {
    const streamId = streamIdOf(key)
    let state = aggregate.initialState
    const events: Array<Event> = []
    for (const command of commands) {
      const decided = aggregate.decide(command, state)
      if (Result.isFailure(decided)) throw new Error(`${streamId}: ${String(decided.failure)}`)
      events.push(...decided.success)
      state = decided.success.reduce(aggregate.evolve, state)
    }
    return { streamId, events: events.map(aggregate.codec.encode) }
  })

const write = (name: string, streams: unknown) =>
  writeFileSync(
    join(import.meta.dirname, "fixtures", `${name}.events.json`),
    `${JSON.stringify({ streams }, null, 2)}\n`,
  )

const t0 = at("2026-03-01T10:00:00Z")
const t1 = at("2026-03-01T10:00:01Z")
const t2 = at("2026-03-02T08:00:00Z")
const fee = { basisPoints: 100, fixedFils: fils(50) }
const fullName = sha256("AISHA AL MANSOURI")

const wallet = (
  merchantOrderNo: string,
  amount: number,
  beneficiary: WalletTransfer.Beneficiary,
  beneficiaryFullName?: string,
): WalletTransfer.PlaceWalletTransfer => ({
  _tag: "PlaceWalletTransfer",
  merchantId: "M1",
  orderNo: `T-${merchantOrderNo}`,
  requestTime: t0,
  now: t0,
  request: {
    merchantOrderNo,
    beneficiaryIdentityType: "PHONE_NO",
    beneficiaryIdentity: sha256("+971501234567"),
    amountFils: fils(amount),
    memo: "salary",
    notifyUrl: "https://merchant.example/wallet",
    ...(beneficiaryFullName === undefined ? {} : { beneficiaryFullName: sha256(beneficiaryFullName) }),
  },
  beneficiary,
  feePlan: fee,
})
const found = (balance: number): WalletTransfer.Beneficiary => ({
  _tag: "MemberFound",
  fullName,
  balanceFils: fils(balance),
})
const settle = (outcome: WalletTransfer.CreditOutcome): WalletTransfer.SettleWalletTransfer => ({
  _tag: "SettleWalletTransfer",
  merchantId: "M1",
  now: t1,
  outcome,
})

write(
  "walletTransfer",
  record(WalletTransfer.aggregate, (no) => WalletTransfer.streamId("M1", no), [
    ["W-success", [wallet("W-success", 100_000, found(0), "AISHA AL MANSOURI"), settle({ _tag: "Credited" })]],
    ["W-created", [wallet("W-created", 100_000, found(0))]],
    ["W-amount-limit", [wallet("W-amount-limit", 1_000_001, found(0))]],
    ["W-not-found", [wallet("W-not-found", 100, { _tag: "MemberNotFound" })]],
    ["W-name-mismatch", [wallet("W-name-mismatch", 100, found(0), "SOMEONE ELSE")]],
    ["W-balance-limit", [wallet("W-balance-limit", 500_001, found(1_500_000))]],
    [
      "W-credit-refused",
      [
        wallet("W-credit-refused", 400_000, found(1_500_000)),
        settle({ _tag: "NotCredited", failCode: "BENEFICIARY_BALANCE_LIMIT_EXCEEDED" }),
      ],
    ],
  ]),
)

const abilities = [
  {
    countryCode: "UAE",
    fundoutCurrencyCode: "AED",
    networkCode: "LOCAL",
    name: "UAEFTS",
    beneficiaryType: "IBAN",
    feePlan: { basisPoints: 0, fixedFils: fils(200) },
  },
  {
    countryCode: "US",
    fundoutCurrencyCode: "USD",
    networkCode: "SWIFT",
    name: "SWIFT",
    beneficiaryType: "IBAN",
    feePlan: { basisPoints: 25, fixedFils: fils(1_500) },
  },
]
const bank = (merchantOrderNo: string, request: Partial<BankTransfer.BankTransferRequest> = {}) =>
  placeBankTransfer({
    now: t0,
    orderNo: `B-${merchantOrderNo}`,
    holderName: sha256("AISHA AL MANSOURI"),
    iban: sha256("AE070331234567890123456"),
    request: { merchantOrderNo, notifyUrl: "https://merchant.example/bank", ...request },
    abilities,
    rate: rate("0.2723"),
  })
const outcome = (recorded: BankTransfer.BankOutcome): BankTransfer.RecordBankOutcome => ({
  _tag: "RecordBankOutcome",
  merchantId: "M1",
  now: t2,
  outcome: recorded,
})

write(
  "bankTransfer",
  record(BankTransfer.aggregate, (no) => BankTransfer.streamId("M1", no), [
    [
      "B-success-usd",
      [
        bank("B-success-usd", {
          networkCode: "SWIFT",
          fundoutCurrencyCode: "USD",
          countryCode: "US",
          swiftCode: "CHASUS33XXX",
          fedwireCode: "021000021",
          accountNo: sha256("000123456789"),
          beneficiaryAddress: sha256("1 Main Street, New York"),
          bankName: "JPMorgan Chase",
          branchName: "New York",
          intermediaryBank: "CITIUS33",
          purposeCode: "SAL",
          memo: "invoice 42",
        }),
        outcome({ _tag: "Succeeded", bankReference: "FT26060ABCD", arrivalTime: t2 }),
      ],
    ],
    ["B-failure", [bank("B-failure"), outcome({ _tag: "Failed", failDes: "Beneficiary account closed" })]],
    ["B-created", [bank("B-created")]],
  ]),
)

const deposit = (orderNo: string, status: VamDeposit.DepositStatus, now = t0): VamDeposit.RecordVamDeposit => ({
  _tag: "RecordVamDeposit",
  merchantId: "M1",
  now,
  deposit: {
    orderNo,
    transactionTime: now,
    amountFils: fils(250_000),
    status,
    referenceNo: "FT26060XYZ",
    remitterInfo: sha256("OMAR HASSAN"),
    senderBankCode: "EBILAEAD",
    depositDetails: "salary top-up",
    collectIBAN: sha256("AE070331234567890123456"),
  },
  notifyUrl: "https://merchant.example/vam",
})

write(
  "vamDeposit",
  record(VamDeposit.aggregate, (no) => VamDeposit.streamId("M1", no), [
    ["V-settled", [deposit("V-settled", "PENDING"), deposit("V-settled", "SUCCESS", t1)]],
    ["V-failed", [deposit("V-failed", "FAILED")]],
    ["V-pending", [deposit("V-pending", "PENDING")]],
  ]),
)

write(
  "memberAccount",
  record(MemberAccount.aggregate, MemberAccount.streamId, [
    [
      sha256("100000000001"),
      [
        {
          _tag: "OpenMemberAccount",
          memberIdDigest: sha256("100000000001"),
          phoneNoDigest: sha256("+971501234567"),
          fullName,
          openingBalanceFils: fils(1_500_000),
          now: t0,
        },
        {
          _tag: "CreditMemberAccount",
          reference: "T-1",
          amountFils: fils(100_000),
          balanceMaxFils: fils(2_000_000),
          now: t1,
        },
        {
          _tag: "CreditMemberAccount",
          reference: "T-2",
          amountFils: fils(400_000),
          balanceMaxFils: fils(2_000_000),
          now: t1,
        },
      ],
    ],
  ]),
)
