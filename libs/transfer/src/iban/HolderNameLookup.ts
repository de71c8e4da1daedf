import { Context, Effect, Layer, Schema } from "effect"
import type { Iban } from "./iban.ts"

/** The bank knows no account holder for the IBAN: 62102 NAME_NOT_FOUND. */
export class HolderNameNotFound extends Schema.TaggedError<HolderNameNotFound>()("HolderNameNotFound", {}) {}

/** The lookup could not be made: 62103 QUERY_API_UNAVAILABLE. */
export class HolderNameLookupUnavailable extends Schema.TaggedError<HolderNameLookupUnavailable>()(
  "HolderNameLookupUnavailable",
  { detail: Schema.String },
) {}

export interface HolderNameLookupRequest {
  readonly iban: Iban
  /** Improves accuracy where the bank's directory uses it (spec: swiftCode "improves accuracy"). */
  readonly swiftCode?: string
}

/**
 * The IBAN holder-name lookup port: the holder name registered for an IBAN,
 * in clear. The domain compares and masks it (`holderName.ts`); the clear
 * name is never stored or logged.
 */
export class HolderNameLookup extends Context.Service<
  HolderNameLookup,
  {
    readonly registeredHolderName: (
      request: HolderNameLookupRequest,
    ) => Effect.Effect<string, HolderNameNotFound | HolderNameLookupUnavailable>
  }
>()("@mizan/transfer/HolderNameLookup") {}

/** A fixed directory of holder names by IBAN (electronic format), for the sandbox and tests. */
export const layerHolderNameDirectory = (
  holderNameByIban: Readonly<Record<string, string>>,
): Layer.Layer<HolderNameLookup> => {
  const table = new Map(Object.entries(holderNameByIban))
  return Layer.succeed(HolderNameLookup, {
    registeredHolderName: ({ iban }) => {
      const name = table.get(iban)
      return name === undefined ? Effect.fail(new HolderNameNotFound()) : Effect.succeed(name)
    },
  })
}
