import { it } from "@effect/vitest"
import { Clock, Effect, Layer, Logger, Option, Tracer } from "effect"
import { describe, expect } from "vitest"
import { sampledInRealTime, withRealTime } from "../src/index.ts"

const tenHoursMs = 10 * 60 * 60_000

/** The clock of a merchant whose sandbox test clock was moved ten hours ahead. */
const aheadClock = Effect.map(
  Clock.Clock,
  (real): Clock.Clock => ({
    sleep: (duration) => real.sleep(duration),
    monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: real.monotonicTimeNanos,
    currentTimeMillisUnsafe: () => real.currentTimeMillisUnsafe() + tenHoursMs,
    currentTimeMillis: Effect.sync(() => real.currentTimeMillisUnsafe() + tenHoursMs),
    currentTimeNanosUnsafe: () => real.currentTimeNanosUnsafe() + BigInt(tenHoursMs) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => real.currentTimeNanosUnsafe() + BigInt(tenHoursMs) * 1_000_000n),
  }),
)

/**
 * The tests that compare dates with the wall clock run on the live clock (it.live): the merchant's clock is the
 * real one moved ahead, as in the gateway, and a TestClock's 1970 would not be ten hours ahead of now.
 */
const onAheadClock = <A, E, R>(work: Effect.Effect<A, E, R>) =>
  Effect.flatMap(aheadClock, (clock) => Effect.provideService(work, Clock.Clock, clock))

describe("log lines", () => {
  it.live("are dated by real time, even inside a merchant's work on its advanced sandbox clock", () =>
    Effect.gen(function* () {
      const dates: Array<Date> = []
      const capture = Logger.make((options) => {
        dates.push(options.date)
      })
      const logged = onAheadClock(Effect.log("inside the merchant's work"))
      yield* logged.pipe(Effect.provide(Logger.layer([capture])))
      yield* logged.pipe(Effect.provide(Logger.layer([withRealTime(capture)])))
      const [fiberClock, realTime] = dates.map((date) => date.getTime() - Date.now()) as [number, number]
      // Effect's own date follows the fiber's clock, ten hours ahead; the real-time logger's does not.
      expect(fiberClock).toBeGreaterThan(tenHoursMs - 60_000)
      expect(Math.abs(realTime)).toBeLessThan(5_000)
    }),
  )
})

/** A tracer that keeps the spans it is asked for, as an exporter would receive them. */
const recordingTracer = () => {
  const ended: Array<Tracer.Span> = []
  const tracer = Tracer.make({
    span(options) {
      const span = Tracer.nativeTracer.span(options)
      const end = span.end.bind(span)
      return Object.assign(span, {
        end: (endTime: bigint, exit: Parameters<typeof end>[1]) => {
          end(endTime, exit)
          ended.push(span)
        },
      })
    },
  })
  return { tracer, ended }
}

const traced = (tracer: Tracer.Tracer) =>
  onAheadClock(Effect.sleep(1).pipe(Effect.withSpan("child"), Effect.withSpan("root"))).pipe(
    Effect.provide(Layer.succeed(Tracer.Tracer, tracer)),
  )

describe("spans", () => {
  it.live("are dated by real time when the fiber's clock is a merchant's advanced one", () =>
    Effect.gen(function* () {
      const { tracer, ended } = recordingTracer()
      yield* traced(sampledInRealTime(tracer, 1))
      expect(ended.map((span) => span.name)).toEqual(["child", "root"])
      for (const span of ended) {
        const startedMs = Number(span.status.startTime / 1_000_000n)
        expect(Math.abs(startedMs - Date.now())).toBeLessThan(5_000)
        expect(span.status._tag).toBe("Ended")
        if (span.status._tag === "Ended") expect(span.status.endTime).toBeGreaterThanOrEqual(span.status.startTime)
      }
    }),
  )

  it.live("are kept or dropped a whole trace at a time, by the sampling ratio", () =>
    Effect.gen(function* () {
      const kept = recordingTracer()
      yield* traced(sampledInRealTime(kept.tracer, 1))
      expect(kept.ended.map((span) => span.sampled)).toEqual([true, true])
      const dropped = recordingTracer()
      yield* traced(sampledInRealTime(dropped.tracer, 0))
      // The root is dropped, and its child follows the root's decision.
      expect(dropped.ended.map((span) => span.sampled)).toEqual([false, false])
      expect(Option.isSome(dropped.ended[0]?.parent ?? Option.none())).toBe(true)
    }),
  )

  it.effect("keep about the share of traces the ratio says", () =>
    Effect.gen(function* () {
      const { tracer, ended } = recordingTracer()
      const sampling = sampledInRealTime(tracer, 0.1)
      for (let trace = 0; trace < 2_000; trace++)
        yield* Effect.void.pipe(Effect.withSpan("root"), Effect.provide(Layer.succeed(Tracer.Tracer, sampling)))
      const share = ended.filter((span) => span.sampled).length / ended.length
      // 2,000 draws at 10%: outside 6%..14% once in about 10^10 runs.
      expect(share).toBeGreaterThan(0.06)
      expect(share).toBeLessThan(0.14)
    }),
  )
})
