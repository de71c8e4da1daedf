import type { Fils, Rejection } from "@mizan/kernel"
import { Effect, Result } from "effect"
import { type FundoutChoice, findAbility, fundoutRefusal, PayoutAbilities, type PayoutAbility } from "./abilities.ts"
import { type FundoutQuote, quoteFundout } from "./quote.ts"
import { RateSource } from "./RateSource.ts"
import type { Rate } from "./rate.ts"

/** What a payout decision needs from configuration and the rate source. */
export interface FundoutTerms {
  readonly abilities: ReadonlyArray<PayoutAbility>
  readonly rate: Rate
}

const enabledAbilityAndRate = Effect.fn("Transfer.enabledAbilityAndRate")(function* (
  merchantId: string,
  choice: FundoutChoice,
) {
  const abilities = yield* (yield* PayoutAbilities).abilitiesOf(merchantId)
  const ability = findAbility(abilities, choice)
  if (Result.isFailure(ability)) return yield* Effect.fail(ability.failure)
  // A currency the rate source cannot price is not supported either: 62076, as for one not enabled.
  const rate = yield* (yield* RateSource)
    .rateFor(choice.fundoutCurrencyCode)
    .pipe(Effect.mapError(() => fundoutRefusal(choice, "fundoutCurrencyCode", "has no rate at present")))
  return { abilities, ability: ability.success, rate }
})

/** A merchant's abilities and the rate of the payout currency, for the bank transfer command. */
export const fundoutTermsOf = (
  merchantId: string,
  choice: FundoutChoice,
): Effect.Effect<FundoutTerms, Rejection, PayoutAbilities | RateSource> =>
  Effect.map(enabledAbilityAndRate(merchantId, choice), ({ abilities, rate }) => ({ abilities, rate }))

/** The rate calculator operation (spec: 8. Rate calculator): the `fundoutInfo` of a payout. */
export const calculateFundout = (
  merchantId: string,
  request: { readonly networkCode: string; readonly fundoutCurrencyCode: string; readonly orderAmount: Fils },
): Effect.Effect<FundoutQuote, Rejection, PayoutAbilities | RateSource> =>
  Effect.map(enabledAbilityAndRate(merchantId, request), ({ ability, rate }) =>
    quoteFundout(ability, request.orderAmount, rate),
  )
