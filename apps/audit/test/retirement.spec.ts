/**
 * A compact replay retires the streams whose state is final (src/retiredStreams.ts):
 * the report does not change, finding for finding, over damaged histories and
 * events after a stream's end, in one replayer or in parts; and every ended
 * stream is retired, every other one open.
 */
import { describe, expect, it } from "@effect/vitest"
import type { RecordedEvent } from "@mizan/eventsourcing"
import { Effect } from "effect"
import fc from "fast-check"
import { makeReplayer, type Replayer } from "../src/index.ts"
import { registry } from "../src/model/registry.ts"
import { localPart, reportOfParts } from "../src/replay/parallelReplay.ts"
import { damage, damagedLog } from "./support/damage.ts"
import { generatedLog } from "./support/histories.ts"

const replayed = (log: ReadonlyArray<RecordedEvent>, retire: boolean): Replayer => {
  const replayer = makeReplayer({ states: "compact", retire })
  for (const record of log) replayer.apply(record)
  return replayer
}

/**
 * `log` with events after the end of some streams: each chosen stream's last
 * event again at its next version, at the end of the log, a millisecond
 * later than the log's last event (what a damaged or hand-edited log holds).
 */
const withEventsAfterTheEnd = (
  log: ReadonlyArray<RecordedEvent>,
  picks: ReadonlyArray<number>,
): Array<RecordedEvent> => {
  const lastOf = new Map<string, RecordedEvent>()
  for (const record of log) lastOf.set(record.streamId, record)
  const lasts = [...lastOf.values()]
  const out = [...log]
  for (const pick of picks) {
    if (lasts.length === 0) break
    const last = lastOf.get(lasts[pick % lasts.length]!.streamId)!
    const end = out[out.length - 1]!
    const again: RecordedEvent = {
      ...last,
      streamVersion: last.streamVersion + 1,
      globalPosition: end.globalPosition + 1n,
      metadata: { ...last.metadata, recordedAt: end.metadata.recordedAt + 1 },
    }
    lastOf.set(again.streamId, again)
    out.push(again)
  }
  return out
}

/** Generated logs, damaged at random, with events after the end of some streams. */
const damagedLogs = fc
  .tuple(
    fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    fc.array(damage, { maxLength: 12 }),
    fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
  )
  .map(([seed, damages, picks]) =>
    // fast-check maps synchronously: the generated store is in memory, so its effect runs at once.
    withEventsAfterTheEnd(damagedLog(Effect.runSync(generatedLog(seed, 500)), damages), picks),
  )

describe("retiring ended streams", () => {
  it("leaves the report as it is without retirement, over damaged histories with events after streams' ends", async () => {
    await fc.assert(
      fc.asyncProperty(damagedLogs, async (log) => {
        const retiring = replayed(log, true)
        const keeping = replayed(log, false)
        expect(retiring.report()).toEqual(keeping.report())
        expect(retiring.streams.size).toBe(keeping.streams.size)
      }),
      { numRuns: 12 },
    )
  })

  it("leaves a replay in parts reporting what one replayer without retirement reports", async () => {
    await fc.assert(
      fc.asyncProperty(damagedLogs, async (log) => {
        const parts = [0, 1].map((index) => makeReplayer({ states: "compact", partition: { index, count: 2 } }))
        for (const record of log) for (const part of parts) part.apply(record)
        const inParts = await reportOfParts(
          parts.map(localPart),
          registry.map((entry) => entry.kind),
          1_000,
        )
        expect(inParts).toEqual(replayed(log, false).report())
      }),
      { numRuns: 6 },
    )
  })

  it.effect(
    "reports the least and greatest position replayed, whole or in parts, when a damaged log is out of order",
    () =>
      Effect.gen(function* () {
        const log = yield* generatedLog(7, 200)
        // The fourth event moved to the front, as a damaged log read from a file may hold it.
        const outOfOrder = [log[3]!, ...log.slice(0, 3), ...log.slice(4)]
        const parts = [0, 1].map((index) => makeReplayer({ states: "compact", partition: { index, count: 2 } }))
        for (const record of outOfOrder) for (const part of parts) part.apply(record)
        const whole = replayed(outOfOrder, false).report()
        expect(whole.firstPosition).toBe(log[0]!.globalPosition)
        expect(whole.lastPosition).toBe(log.at(-1)!.globalPosition)
        const inParts = yield* Effect.promise(() =>
          reportOfParts(
            parts.map(localPart),
            registry.map((entry) => entry.kind),
            1_000,
          ),
        )
        expect(inParts).toEqual(whole)
      }),
  )

  it.effect("retires every stream an append left ended, and no other", () =>
    Effect.gen(function* () {
      const log = yield* generatedLog(7, 2_000)
      const replayer = replayed(log, true)
      const streams = [...replayer.streams.values()]
      const ended = streams.filter((tracked) => tracked.fold?.ended?.(tracked.state) === true)
      // The generated history ends most of its orders, refunds, transfers and every order-number index.
      expect(ended.length).toBeGreaterThan(streams.length / 2)
      expect(replayer.streams.retired).toBe(ended.length)
      for (const tracked of streams)
        expect(replayer.streams.isRetired(tracked.streamId), tracked.streamId).toBe(
          tracked.fold?.ended?.(tracked.state) === true,
        )
    }),
  )

  it.effect("revives a retired stream that takes another event, reported as without retirement", () =>
    Effect.gen(function* () {
      const log = yield* generatedLog(7, 2_000)
      const index = log.find((record) => record.streamId.startsWith("order-no-"))!
      const damagedLog = withEventsAfterTheEnd(log, [[...new Set(log.map((r) => r.streamId))].indexOf(index.streamId)])
      const retiring = replayed(damagedLog, true)
      // The reissue breaks "an order number is issued once": the stream stays open, its rule broken.
      expect(retiring.streams.isRetired(index.streamId)).toBe(false)
      expect(retiring.report().brokenInvariants.listed.map((broken) => broken.streamId)).toContain(index.streamId)
      expect(retiring.report()).toEqual(replayed(damagedLog, false).report())
    }),
  )

  it.effect("retires nothing in a replay of the domain's states (show and at print them)", () =>
    Effect.gen(function* () {
      const log = yield* generatedLog(7, 1_000)
      const replayer = makeReplayer({ states: "domain" })
      for (const record of log) replayer.apply(record)
      expect(replayer.streams.retired).toBe(0)
      expect([...replayer.streams.values()].map((tracked) => tracked.streamId)).toEqual([
        ...new Set(log.map((record) => record.streamId)),
      ])
    }),
  )
})
