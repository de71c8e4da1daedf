import { minuteMs } from "@mizan/kernel"
import { MerchantClocks } from "@mizan/test-clock"
import { Clock, Effect, Logger } from "effect"
import { describe, expect, it } from "vitest"
import { withRealTime } from "../src/realTimeLogger.ts"

describe("log lines", () => {
  it("are dated by real time, even inside a merchant's work on its advanced sandbox clock", async () => {
    const dates: Array<Date> = []
    const capture = Logger.make((options) => {
      dates.push(options.date)
    })
    const shifted = Effect.clockWith((real) => {
      const merchantClocks = new MerchantClocks(real)
      merchantClocks.offsetReached("M1", 600 * minuteMs)
      return Effect.log("inside the merchant's work").pipe(
        Effect.provideService(Clock.Clock, merchantClocks.clockOf("M1")),
      )
    })
    await Effect.runPromise(
      Effect.gen(function* () {
        yield* shifted.pipe(Effect.provide(Logger.layer([capture])))
        yield* shifted.pipe(Effect.provide(Logger.layer([withRealTime(capture)])))
      }),
    )
    const [fiberClock, realTime] = dates.map((date) => date.getTime() - Date.now()) as [number, number]
    // Effect's own date follows the fiber's clock, 600 minutes ahead; the real-time logger's does not.
    expect(fiberClock).toBeGreaterThan(599 * minuteMs)
    expect(Math.abs(realTime)).toBeLessThan(5_000)
  })
})
