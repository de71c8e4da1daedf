import { reject, Timestamp } from "@mizan/kernel"
import { Clock, Effect, Schema } from "effect"
import { SandboxClock } from "../clock.ts"
import type { HandlerServices } from "../handlers/services.ts"
import { type ApiOperation, operation } from "../pipeline.ts"

/** A year: far enough for every window the spec has (180-day refunds), bounded so a typo cannot wreck a sandbox. */
const advanceMinutesMax = 366 * 24 * 60

const AdvanceClock = Schema.Struct({
  minutes: Schema.Int.check(
    Schema.isBetween({ minimum: 1, maximum: advanceMinutesMax }, { message: `must be from 1 to ${advanceMinutesMax}` }),
  ),
})
const ClockNow = Schema.Struct({ now: Timestamp })

/**
 * `/advanceClock { minutes }`: moves the service's time forward (expiry, the
 * 180-day refund window, notification retries). The clock never goes back,
 * so recorded history stays in order.
 */
export const clockSandboxOperations: Readonly<Record<string, ApiOperation<HandlerServices>>> = {
  "/advanceClock": operation(
    AdvanceClock,
    ClockNow,
    (_call, request) =>
      Effect.gen(function* () {
        const clock = yield* Clock.Clock
        if (!(clock instanceof SandboxClock))
          return yield* Effect.fail(reject("SERVICE_NOT_AVAILABLE", "no test clock"))
        clock.advance(request.minutes * 60_000)
        return { now: clock.currentTimeMillisUnsafe() as Timestamp }
      }),
    false,
  ),
}
