/**
 * The stories of payouts and top-ups: wallet transfers (through the
 * `transferToWallet` workflow and the sandbox member directory), bank
 * transfers and bank card transfers with the bank's outcomes, and
 * virtual-account deposits as the bank reports them.
 */

import { BankCardTransfer, CardNumber, legalNameShape } from "@mizan/card-transfer"
import { handleCommand } from "@mizan/eventsourcing"
import { fils, hourMs, minuteMs, type Sha256Hex, withoutUndefined } from "@mizan/kernel"
import { placeTransfer, transferToWallet } from "@mizan/order-flows"
import { BankTransfer, VamDeposit } from "@mizan/transfer"
import { Effect } from "effect"
import { after, type Step, stepLater, theEnd } from "../story.ts"
import { payoutAbilities, personName, quotedRates, sha256, type World } from "../world.ts"

const walletFeePlan = { basisPoints: 0, fixedFils: fils(100) }
const cardFeePlan = { basisPoints: 150, fixedFils: fils(100) }

/** A made-up UAE IBAN (its check digits are not computed: only its digest is ever kept). */
const ibanFor = (world: World): string => `AE${world.random.digits(2)}0${world.random.digits(19)}`

/**
 * A wallet transfer: mostly to a sandbox member, sometimes to no one, with
 * a wrong full name, or above the per-transfer limit; the members' balances
 * fill up over a long history, and later transfers to them fail on the
 * AED 20,000 limit.
 */
export const walletStory = Effect.fnUntraced(function* (world: World) {
  const { random } = world
  const merchant = random.pick(world.merchants)
  const member = random.pick(world.members)
  const identityType = random.pick(["PHONE_NO", "MEMBER_ID"] as const)
  const known = random.chance(0.96)
  const identity: Sha256Hex = !known
    ? sha256(`+9715${random.digits(8)}`)
    : identityType === "PHONE_NO"
      ? member.phoneNoDigest
      : member.memberIdDigest
  const nameFate = random.weighted({ right: 0.85, absent: 0.1, wrong: 0.05 })
  const merchantOrderNo = world.merchantNumber("WT")
  const orderNo = world.serviceOrderNo("walletTransfer")
  const now = world.now()
  yield* transferToWallet({
    merchantId: merchant.merchantId,
    orderNo,
    requestTime: now,
    now,
    request: {
      merchantOrderNo,
      beneficiaryIdentityType: identityType,
      beneficiaryIdentity: identity,
      ...(nameFate === "absent"
        ? {}
        : { beneficiaryFullName: nameFate === "right" ? member.fullName : sha256(personName(random)) }),
      amountFils: fils(random.chance(0.02) ? random.int(1_000_001, 1_500_000) : random.int(1_000, 300_000)),
      memo: random.pick(["salary", "refund", "cashback", "payout"]),
      notifyUrl: "https://merchant.example/wallet",
    },
    feePlan: walletFeePlan,
  })
  return theEnd
})

const bankRequestFor = (world: World, merchantOrderNo: string) => {
  const { random } = world
  const ability = random.weighted({ AED: 0.7, USD: 0.2, KWD: 0.1 })
  const holderName = personName(random)
  const address = random.chance(0.4) ? `${random.int(1, 99)} Corniche Road, Abu Dhabi` : undefined
  const foreign = ability !== "AED"
  const request: BankTransfer.BankTransferRequest = {
    merchantOrderNo,
    amountFils: fils(random.int(10_000, 2_000_000)),
    holderName: sha256(holderName),
    iban: sha256(ibanFor(world)),
    ...withoutUndefined({ beneficiaryAddress: address === undefined ? undefined : sha256(address) }),
    ...(foreign
      ? {
          networkCode: "SWIFT",
          fundoutCurrencyCode: ability,
          countryCode: ability === "USD" ? "US" : "KW",
          swiftCode: ability === "USD" ? "CHASUS33XXX" : "NBOKKWKW",
        }
      : {}),
    memo: random.pick(["supplier", "rent", "payroll"]),
    notifyUrl: "https://merchant.example/bank",
  }
  return {
    request,
    rate: quotedRates[ability],
    // The gateway's default delays: an hour on LOCAL, two days on SWIFT.
    arrivalDelayMinutes: foreign ? 2_880 : 60,
    clearLengths: { holderNameChars: [...holderName].length, beneficiaryAddressChars: [...(address ?? "")].length },
  }
}

/** A bank transfer: placed at the quoted rate, then the bank pays it out or fails it (a few never hear back). */
export const bankStory = Effect.fnUntraced(function* (world: World) {
  const { random } = world
  const merchant = random.pick(world.merchants)
  const merchantOrderNo = world.merchantNumber("BT")
  const orderNo = world.serviceOrderNo("bankTransfer")
  const streamId = BankTransfer.streamId(merchant.merchantId, merchantOrderNo)
  const now = world.now()
  const place: BankTransfer.PlaceBankTransfer = {
    _tag: "PlaceBankTransfer",
    merchantId: merchant.merchantId,
    orderNo,
    requestTime: now,
    now,
    ...bankRequestFor(world, merchantOrderNo),
    abilities: payoutAbilities,
  }
  yield* placeTransfer(BankTransfer.aggregate, streamId, place, "bankTransfer")
  const fate = random.weighted({ paid: 0.8, failed: 0.15, silent: 0.05 })
  if (fate === "silent") return theEnd
  const outcome = stepLater(() =>
    Effect.as(
      handleCommand(BankTransfer.aggregate, streamId, {
        _tag: "RecordBankOutcome",
        merchantId: merchant.merchantId,
        now: world.now(),
        outcome:
          fate === "paid"
            ? { _tag: "Succeeded", bankReference: `FT${random.digits(10)}`, arrivalTime: world.now() }
            : { _tag: "Failed", failDes: random.pick(["Beneficiary account closed", "Invalid beneficiary IBAN"]) },
      }),
      theEnd,
    ),
  )
  return [after(random.int(hourMs, 48 * hourMs), outcome)]
})

const cardHolder = (world: World) => {
  const { random } = world
  if (random.chance(0.8))
    return {
      request: {
        accountHolderType: "INDIVIDUAL" as const,
        firstName: sha256("AISHA"),
        lastName: sha256(personName(random)),
      },
      companyNameShape: undefined,
    }
  const company = random.pick(["Emirates Trading LLC", "Gulf Logistics FZE", "Desert Rose Catering"])
  return {
    request: { accountHolderType: "CORPORATE" as const, companyName: sha256(company) },
    companyNameShape: legalNameShape(company),
  }
}

/**
 * A bank card transfer: the clear card number exists only inside the command
 * (a `CardNumber`, which the decider reduces to its digest and last 4), then
 * the bank pays, declines (BANK_FAIL) or fails it; a failed payout's amount
 * is usually returned to the payer.
 */
export const cardStory = Effect.fnUntraced(function* (world: World) {
  const { random } = world
  const merchant = random.pick(world.merchants)
  const merchantOrderNo = world.merchantNumber("CT")
  const orderNo = world.serviceOrderNo("cardTransfer")
  const streamId = BankCardTransfer.streamId(merchant.merchantId, merchantOrderNo)
  const now = world.now()
  const clear = `4${random.digits(15)}`
  const holder = cardHolder(world)
  const place: BankCardTransfer.PlaceBankCardTransfer = {
    _tag: "PlaceBankCardTransfer",
    merchantId: merchant.merchantId,
    orderNo,
    requestTime: now,
    now,
    request: {
      merchantOrderNo,
      ...holder.request,
      amountFils: fils(random.int(1_000, 500_000)),
      memo: "payout",
      notifyUrl: "https://merchant.example/card",
      expiryYear: String(new Date(now).getUTCFullYear() + random.int(1, 4)),
      expiryMonth: String(random.int(1, 12)).padStart(2, "0"),
    },
    cardNumber: new CardNumber(clear, sha256(clear)),
    ...withoutUndefined({ companyNameShape: holder.companyNameShape }),
    enabledProducts: [BankCardTransfer.bankCardTransferProduct],
    feePlan: cardFeePlan,
    payerFeeMemberId: "100000000099",
  }
  yield* placeTransfer(BankCardTransfer.aggregate, streamId, place, "cardTransfer")
  const fate = random.weighted({ Paid: 0.8, BankDeclined: 0.1, Failed: 0.1 })
  const returned = stepLater(() =>
    Effect.as(
      handleCommand(BankCardTransfer.aggregate, streamId, {
        _tag: "RecordPayoutRefund",
        merchantId: merchant.merchantId,
        now: world.now(),
      }),
      theEnd,
    ),
  )
  const outcome: Step = Effect.gen(function* () {
    yield* handleCommand(BankCardTransfer.aggregate, streamId, {
      _tag: "RecordCardPayoutOutcome",
      merchantId: merchant.merchantId,
      now: world.now(),
      outcome:
        fate === "Paid"
          ? { _tag: "Paid", bankReference: `VD${random.digits(9)}` }
          : { _tag: fate, failDes: fate === "BankDeclined" ? "Card issuer declined" : "Payout network timeout" },
    })
    return fate !== "Paid" && random.chance(0.8) ? [after(random.int(hourMs, 24 * hourMs), returned)] : theEnd
  })
  return [after(random.int(minuteMs, 30 * minuteMs), outcome)]
})

/** A virtual-account top-up as the bank reports it: PENDING then final, or final at once. */
export const vamDepositStory = Effect.fnUntraced(function* (world: World) {
  const { random } = world
  const merchant = random.pick(world.merchants)
  const deposit: VamDeposit.VamDepositReport = {
    orderNo: world.serviceOrderNo("vamDeposit"),
    transactionTime: world.now(),
    amountFils: fils(random.int(10_000, 5_000_000)),
    status: random.weighted({ PENDING: 0.7, SUCCESS: 0.25, FAILED: 0.05 }),
    referenceNo: `FT${random.digits(10)}`,
    remitterInfo: sha256(personName(random)),
    senderBankCode: random.pick(["EBILAEAD", "NBADAEAA", "ADCBAEAA"]),
    depositDetails: "top-up",
    collectIBAN: sha256(ibanFor(world)),
  }
  const streamId = VamDeposit.streamId(merchant.merchantId, deposit.orderNo)
  const report = (reported: VamDeposit.VamDepositReport) =>
    handleCommand(VamDeposit.aggregate, streamId, {
      _tag: "RecordVamDeposit",
      merchantId: merchant.merchantId,
      now: world.now(),
      deposit: reported,
      notifyUrl: "https://merchant.example/vam",
    })
  yield* report(deposit)
  if (deposit.status !== "PENDING") return theEnd
  const settled = stepLater(() =>
    Effect.as(
      report({
        ...deposit,
        status: random.chance(0.9) ? "SUCCESS" : "FAILED",
        transactionTime: world.now(),
      }),
      theEnd,
    ),
  )
  return [after(random.int(minuteMs, 6 * hourMs), settled)]
})
