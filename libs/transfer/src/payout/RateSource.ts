import { Context, Effect, Layer, Schema } from "effect"
import { type Rate, unitRate } from "./rate.ts"

export class RateUnavailable extends Schema.TaggedError<RateUnavailable>()("RateUnavailable", {
  currency: Schema.String,
}) {
  override get message(): string {
    return `no AED rate for ${this.currency}`
  }
}

/**
 * The rate source port: how many units of a currency one AED buys now.
 * Deciders never call it; its answer travels on the command.
 */
export class RateSource extends Context.Service<
  RateSource,
  { readonly rateFor: (fundoutCurrencyCode: string) => Effect.Effect<Rate, RateUnavailable> }
>()("@mizan/transfer/RateSource") {}

/**
 * The default rate source: a configured table of rates per currency (build
 * its entries with `rate("3.6725")`). AED always converts at 1.
 */
export const layerRateTable = (ratesByCurrency: Readonly<Record<string, Rate>>): Layer.Layer<RateSource> => {
  const table = new Map<string, Rate>([...Object.entries(ratesByCurrency), ["AED", unitRate]])
  return Layer.succeed(RateSource, {
    rateFor: (currency) => {
      const found = table.get(currency)
      return found === undefined ? Effect.fail(new RateUnavailable({ currency })) : Effect.succeed(found)
    },
  })
}
