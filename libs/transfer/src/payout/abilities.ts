/**
 * Payout abilities (spec: Payout ability item, `fundoutAbilityList`): the
 * payout methods a merchant may use, from configuration. Each also carries
 * the fee plan of its network, so that "feeAmount per network from the fee
 * plan" reads from one table; the wire list leaves the plan out.
 */
import { FeePlan, type Rejection, RequiredString, rejectField } from "@mizan/kernel"
import { Context, Effect, Layer, Result, Schema } from "effect"
import { CurrencyCode } from "./currency.ts"

export const NetworkCode = RequiredString(20)

export const PayoutAbility = Schema.Struct({
  /** Country of the beneficiary bank, as the configuration names it (the spec's samples: UAE, SG, US, HK). */
  countryCode: RequiredString(16),
  fundoutCurrencyCode: CurrencyCode,
  networkCode: NetworkCode,
  /** The transfer network's name. */
  name: RequiredString(64),
  /** What identifies the beneficiary account: IBAN, BBAN. */
  beneficiaryType: RequiredString(16),
  feePlan: FeePlan,
})
export type PayoutAbility = typeof PayoutAbility.Type

/** One item of the wire's `fundoutAbilityList`. */
export const toFundoutAbilityItem = ({ feePlan: _, ...item }: PayoutAbility): Omit<PayoutAbility, "feePlan"> => item

/** The fields of a request that choose its payout ability. */
export type FundoutField = "networkCode" | "fundoutCurrencyCode"

/**
 * A payout's network and currency, as chosen by a request: each as the
 * merchant sent it or, where `defaulted` names it, the default the request
 * took because the merchant left it out (a bank transfer may; the rate
 * calculator requires both). A refusal names what the merchant sent, and
 * says of a default that it was not sent: naming a field the merchant did
 * not send as if it had would send the merchant after a value it never wrote.
 */
export interface FundoutChoice {
  readonly networkCode: string
  readonly fundoutCurrencyCode: string
  readonly defaulted?: ReadonlyArray<FundoutField>
}

/**
 * 62076 FUND_OUT_ABILITY_SUPPORTED about one field of the choice: the field,
 * then its value as sent ("networkCode SWIFT") or, as defaulted, that it
 * was not sent ("networkCode was not sent and defaults to LOCAL, which"),
 * then `rest`, what is wrong with that value.
 */
export const fundoutRefusal = (choice: FundoutChoice, field: FundoutField, rest: string): Rejection =>
  rejectField(
    "FUND_OUT_ABILITY_SUPPORTED",
    field,
    choice.defaulted?.includes(field) === true
      ? `was not sent and defaults to ${choice[field]}, which ${rest}`
      : `${choice[field]} ${rest}`,
  )

const otherField = (field: FundoutField): FundoutField =>
  field === "networkCode" ? "fundoutCurrencyCode" : "networkCode"

/** Why no ability answers the choice: named from a defaulted field first, as the field to send. */
const notEnabled = (choice: FundoutChoice): Rejection => {
  const defaulted = choice.defaulted ?? []
  if (defaulted.includes("networkCode") && defaulted.includes("fundoutCurrencyCode"))
    return rejectField(
      "FUND_OUT_ABILITY_SUPPORTED",
      "networkCode",
      `and fundoutCurrencyCode were not sent and default to ${choice.networkCode} and ${choice.fundoutCurrencyCode}, which are not enabled for this merchant`,
    )
  const first = defaulted[0] ?? "networkCode"
  const second = otherField(first)
  return fundoutRefusal(choice, first, `with ${second} ${choice[second]} is not enabled for this merchant`)
}

/**
 * The enabled ability for a network and currency, or 62076
 * FUND_OUT_ABILITY_SUPPORTED ("networkCode or fundoutCurrencyCode not
 * enabled or supported").
 */
export const findAbility = (
  abilities: ReadonlyArray<PayoutAbility>,
  choice: FundoutChoice,
): Result.Result<PayoutAbility, Rejection> => {
  const found = abilities.find(
    (a) => a.networkCode === choice.networkCode && a.fundoutCurrencyCode === choice.fundoutCurrencyCode,
  )
  return found === undefined ? Result.fail(notEnabled(choice)) : Result.succeed(found)
}

/** The merchants' payout abilities, from configuration. */
export class PayoutAbilities extends Context.Service<
  PayoutAbilities,
  { readonly abilitiesOf: (merchantId: string) => Effect.Effect<ReadonlyArray<PayoutAbility>> }
>()("@mizan/transfer/PayoutAbilities") {}

/** A configured table of abilities per merchant id; a merchant not in it has none. */
export const layerPayoutAbilities = (
  byMerchant: Readonly<Record<string, ReadonlyArray<PayoutAbility>>>,
): Layer.Layer<PayoutAbilities> => {
  const table = new Map(Object.entries(byMerchant))
  return Layer.succeed(PayoutAbilities, {
    abilitiesOf: (merchantId) => Effect.succeed(table.get(merchantId) ?? []),
  })
}
