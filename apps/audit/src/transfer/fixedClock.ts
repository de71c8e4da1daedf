/**
 * A clock whose time stands still at one moment (waits still take real
 * time). The stores stamp `recordedAt` from Effect's Clock, so an import that
 * appends under this clock keeps each event's original recorded time.
 */
import { type Clock, Duration, Effect } from "effect"

const realSleep = (duration: Duration.Duration): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    const timer = setTimeout(() => resume(Effect.void), Duration.toMillis(duration))
    return Effect.sync(() => clearTimeout(timer))
  })

export const fixedClock = (ms: number): Clock.Clock => ({
  currentTimeMillisUnsafe: () => ms,
  currentTimeMillis: Effect.succeed(ms),
  currentTimeNanosUnsafe: () => BigInt(ms) * 1_000_000n,
  currentTimeNanos: Effect.succeed(BigInt(ms) * 1_000_000n),
  monotonicTimeNanosUnsafe: () => process.hrtime.bigint(),
  monotonicTimeNanos: Effect.sync(() => process.hrtime.bigint()),
  sleep: realSleep,
})
