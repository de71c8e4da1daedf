/**
 * The sandbox's test clocks, one per merchant (`@mizan/test-clock`):
 * - `/advanceClock { minutes }` moves the calling merchant's time forward:
 *   expiry, the 180-day refund window, settlement and its notifications'
 *   retries then run on it. Nobody else's time moves. The advance is an
 *   event on the merchant's clock stream, so it survives restarts and the
 *   audit sees it.
 * - `/getClock` answers the merchant's time and offset.
 * - `/resetClock` puts an unmoved clock at real time (a no-op) and refuses a
 *   moved one: time never goes back, since recorded history would then run
 *   backwards. A fresh sandbox merchant (`npm run merchant -- add`) starts at
 *   real time.
 */
import { handleCommand } from "@mizan/eventsourcing"
import { reject, Timestamp, WholeNumber } from "@mizan/kernel"
import { advanceMaxMinutes, testClock, testClockStreamId } from "@mizan/test-clock"
import { Effect, Schema } from "effect"
import type { HandlerServices } from "../handlers/services.ts"
import { ApiSettings } from "../pipeline/apiSettings.ts"
import { type ApiOperation, type Call, operation } from "../pipeline/pipeline.ts"

const AdvanceClock = Schema.Struct({
  minutes: WholeNumber.check(
    Schema.isBetween({ minimum: 1, maximum: advanceMaxMinutes }, { message: `must be from 1 to ${advanceMaxMinutes}` }),
  ),
})
const NoParameters = Schema.UndefinedOr(Schema.Struct({}))

/** The merchant's clock as the sandbox answers it. */
const MerchantClock = Schema.Struct({
  /** The merchant's time, ms since the epoch. */
  now: Timestamp,
  /** How far the merchant's time is ahead of real time. */
  offsetMinutes: Schema.Number,
})

const clockOf = (call: Call) =>
  Effect.map(ApiSettings, ({ clocks }) => ({
    now: clocks.nowOf(call.merchant.partnerId),
    offsetMinutes: clocks.offsetOf(call.merchant.partnerId) / 60_000,
  }))

export const clockSandboxOperations: Readonly<Record<string, ApiOperation<HandlerServices>>> = {
  "/advanceClock": operation(
    AdvanceClock,
    MerchantClock,
    (call, request) =>
      Effect.gen(function* () {
        const { clocks } = yield* ApiSettings
        const merchantId = call.merchant.partnerId
        const { state } = yield* handleCommand(testClock, testClockStreamId(merchantId), {
          merchantId,
          byMs: request.minutes * 60_000,
          at: clocks.realNow() as Timestamp,
        })
        clocks.offsetReached(merchantId, state.offsetMs)
        return yield* clockOf(call)
      }),
    false,
  ),
  "/getClock": operation(NoParameters, MerchantClock, (call) => clockOf(call), false),
  "/resetClock": operation(
    NoParameters,
    MerchantClock,
    (call) =>
      Effect.gen(function* () {
        const { clocks } = yield* ApiSettings
        if (clocks.offsetOf(call.merchant.partnerId) > 0)
          return yield* Effect.fail(
            reject(
              "INVALID_PARAMETER",
              "the test clock never goes back once it has moved (recorded history would run backwards): register a fresh sandbox merchant for a clock at real time",
            ),
          )
        return yield* clockOf(call)
      }),
    false,
  ),
}
