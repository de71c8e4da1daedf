import { KeyRing, makeSealerOn, type SubjectKeys } from "@mizan/eventsourcing"
import { mizanSealingPlan } from "@mizan/order-views"
import { Effect, Option } from "effect"
import { atLine } from "./fileLines.ts"

/** The sealer of `mizanSealingPlan` over `keys`, with the master key file given to the audit. */
export const sealerOver = Effect.fn("Audit.sealerOver")(function* (
  keys: SubjectKeys["Service"],
  number: number,
  why: string,
) {
  const keyRing = yield* Effect.serviceOption(KeyRing)
  if (Option.isNone(keyRing))
    return yield* atLine(
      number,
      `${why}: give the master key file that wraps the data keys (--master-key-file or MIZAN_MASTER_KEY_FILE)`,
    )
  return yield* makeSealerOn(mizanSealingPlan, keys, keyRing.value).pipe(
    Effect.mapError((error) => atLine(number, error.detail)),
  )
})
