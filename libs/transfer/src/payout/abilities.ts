/**
 * Payout abilities (spec: Payout ability item, `fundoutAbilityList`): the
 * payout methods a merchant may use, from configuration. Each also carries
 * the fee plan of its network, so that "feeAmount per network from the fee
 * plan" reads from one table; the wire list leaves the plan out.
 */
import { FeePlan, type Rejection, RequiredString, reject } from "@mizan/kernel"
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

/**
 * The enabled ability for a network and currency, or 62076
 * FUND_OUT_ABILITY_SUPPORTED ("networkCode or fundoutCurrencyCode not
 * enabled or supported").
 */
export const findAbility = (
  abilities: ReadonlyArray<PayoutAbility>,
  networkCode: string,
  fundoutCurrencyCode: string,
): Result.Result<PayoutAbility, Rejection> => {
  const found = abilities.find((a) => a.networkCode === networkCode && a.fundoutCurrencyCode === fundoutCurrencyCode)
  return found === undefined
    ? Result.fail(
        reject(
          "FUND_OUT_ABILITY_SUPPORTED",
          `bizContent.networkCode ${networkCode} with fundoutCurrencyCode ${fundoutCurrencyCode} is not enabled for this merchant`,
        ),
      )
    : Result.succeed(found)
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
