import { test } from "@fast-check/vitest"
import { ANY, NO_STREAM, START, WrongExpectedVersionError } from "@kurrent/kurrentdb-client"
import { logStart, type NewEvent } from "@mizan/eventsourcing"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  appendFailure,
  checkpointStreamPrefix,
  isAfter,
  isLogEvent,
  isStreamNotFound,
  isUuid,
  namespaceOf,
  readAllStart,
  reasonOf,
  revisionOfVersion,
  storedMetadataOf,
  streamStateFor,
  toRecordedEvent,
  versionOfRevision,
  versionOfStreamState,
} from "../src/mapping.ts"

const version = fc.integer({ min: 1, max: 2 ** 40 })
const numRuns = 100

describe("expected versions and revisions", () => {
  it("expects no stream for 'no_stream' and for version 0, and anything for 'any'", () => {
    expect(streamStateFor("no_stream")).toBe(NO_STREAM)
    expect(streamStateFor(0)).toBe(NO_STREAM)
    expect(streamStateFor("any")).toBe(ANY)
  })

  test.prop([version], { numRuns })("expects a stream of n events to end at revision n - 1", (n) => {
    expect(streamStateFor(n)).toBe(BigInt(n - 1))
  })

  test.prop([version], { numRuns })("numbers the event at version v as revision v - 1, and back", (v) => {
    expect(revisionOfVersion(v)).toBe(BigInt(v) - 1n)
    expect(versionOfRevision(revisionOfVersion(v))).toBe(v)
  })

  it("reads the stream state a conflict reports as the stream's version", () => {
    expect(versionOfStreamState(NO_STREAM)).toBe(0)
    expect(versionOfStreamState(0n)).toBe(1)
    expect(versionOfStreamState(41n)).toBe(42)
    // Deleted (-5) and tombstoned (-6) streams, which Mizan never makes, count as empty.
    expect(versionOfStreamState(-5n)).toBe(0)
  })
})

describe("global positions", () => {
  it("reads the whole of $all from the start, and after a position from that position", () => {
    expect(readAllStart(logStart)).toBe(START)
    expect(readAllStart(0n)).toEqual({ commit: 0n, prepare: 0n })
    expect(readAllStart(2n ** 62n)).toEqual({ commit: 2n ** 62n, prepare: 2n ** 62n })
  })

  test.prop([fc.bigInt({ min: -1n, max: 2n ** 63n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 63n - 1n })], { numRuns })(
    "keeps only events strictly after the position read from, since the server's start is inclusive",
    (after, position) => {
      expect(isAfter(position, after)).toBe(position > after)
      expect(isAfter(after, after)).toBe(false)
    },
  )
})

describe("which events are the log's", () => {
  it("drops system events, by stream or by type, and checkpoints", () => {
    expect(isLogEvent("order-1", "Paid")).toBe(true)
    expect(isLogEvent("$stats-127.0.0.1:2113", "$statsCollected")).toBe(false)
    expect(isLogEvent("$$order-1", "$metadata")).toBe(false)
    expect(isLogEvent("$ce-order", "$>")).toBe(false)
    expect(isLogEvent("order-1", "$streamDeleted")).toBe(false)
    expect(isLogEvent(`${checkpointStreamPrefix}notifier`, "CheckpointStored")).toBe(false)
  })

  test.prop([fc.string({ maxLength: 12 }).filter((p) => !p.startsWith("$")), fc.string({ maxLength: 20 })], {
    numRuns,
  })("names a stream inside its namespace and finds the port's id again", (prefix, streamId) => {
    const namespace = namespaceOf(prefix)
    expect(namespace.streamIdOf(namespace.stream(streamId))).toBe(streamId)
    expect(namespace.streamIdOf(namespace.checkpoint("notifier"))).toBe(`${checkpointStreamPrefix}notifier`)
  })

  it("does not claim a stream of another namespace", () => {
    expect(namespaceOf("run-1-").streamIdOf("run-2-order-1")).toBeUndefined()
  })

  it("accepts UUID event ids only", () => {
    expect(isUuid("0b8e6c1e-1d2b-4e8f-9a3a-2c1d0e9f8a7b")).toBe(true)
    expect(isUuid("order-1-event-1")).toBe(false)
  })
})

describe("events", () => {
  const newEvent: NewEvent = {
    type: "Paid",
    schemaVersion: 2,
    data: { amountFils: 1250 },
    metadata: { correlationId: "c-1", causationId: "k-1" },
  }

  it("keeps correlation and causation under the keys KurrentDB's projections read", () => {
    expect(storedMetadataOf(newEvent, 1_700_000_000_000)).toEqual({
      $correlationId: "c-1",
      $causationId: "k-1",
      schemaVersion: 2,
      recordedAt: 1_700_000_000_000,
    })
    expect(storedMetadataOf({ type: "A", schemaVersion: 1, data: {} }, 5)).toEqual({ schemaVersion: 1, recordedAt: 5 })
  })

  it("turns a recorded JSON event into the port's record: version from revision, position from commit", () => {
    const recorded = toRecordedEvent(
      {
        streamId: "ns-order-1",
        id: "0b8e6c1e-1d2b-4e8f-9a3a-2c1d0e9f8a7b",
        revision: 4n,
        type: "Paid",
        isJson: true,
        data: { amountFils: 1250 },
        metadata: storedMetadataOf(newEvent, 1_700_000_000_000),
        position: { commit: 9_000n, prepare: 9_000n },
      },
      "order-1",
    )
    expect(recorded).toEqual(
      Result.succeed({
        id: "0b8e6c1e-1d2b-4e8f-9a3a-2c1d0e9f8a7b",
        streamId: "order-1",
        type: "Paid",
        schemaVersion: 2,
        data: { amountFils: 1250 },
        metadata: { correlationId: "c-1", causationId: "k-1", recordedAt: 1_700_000_000_000 },
        streamVersion: 5,
        globalPosition: 9_000n,
      }),
    )
  })

  it("refuses events it cannot read as Mizan's: binary, without a position, without Mizan metadata", () => {
    const base = {
      streamId: "s",
      id: "0b8e6c1e-1d2b-4e8f-9a3a-2c1d0e9f8a7b",
      revision: 0n,
      type: "A",
      isJson: true,
      data: {},
      metadata: { schemaVersion: 1, recordedAt: 1 },
      position: { commit: 1n, prepare: 1n },
    }
    expect(Result.isSuccess(toRecordedEvent(base, "s"))).toBe(true)
    expect(Result.isFailure(toRecordedEvent({ ...base, isJson: false }, "s"))).toBe(true)
    expect(Result.isFailure(toRecordedEvent({ ...base, position: undefined }, "s"))).toBe(true)
    expect(Result.isFailure(toRecordedEvent({ ...base, metadata: { written: "elsewhere" } }, "s"))).toBe(true)
  })
})

describe("errors", () => {
  it("turns the client's WrongExpectedVersionError into a VersionConflict with the port's version", () => {
    const onAppend = appendFailure("order-1", 3)
    const stale = onAppend(
      new WrongExpectedVersionError(undefined, { streamName: "order-1", expected: 2n, current: 4n }),
    )
    expect(stale).toMatchObject({ _tag: "VersionConflict", streamId: "order-1", expected: 3, actual: 5 })
    const missing = appendFailure(
      "order-1",
      3,
    )(new WrongExpectedVersionError(undefined, { streamName: "order-1", expected: 2n, current: NO_STREAM }))
    expect(missing).toMatchObject({ _tag: "VersionConflict", actual: 0 })
  })

  it("reports connection failures as Unavailable, converted by the client or not", () => {
    expect(reasonOf({ type: "unavailable" })).toBe("Unavailable")
    expect(reasonOf({ type: "deadline-exceeded" })).toBe("Unavailable")
    expect(reasonOf({ type: "not-leader" })).toBe("Unavailable")
    // What appendToStream rejects with when nothing listens: a bare gRPC error, status 14.
    expect(reasonOf(Object.assign(new Error("14 UNAVAILABLE: No connection established"), { code: 14 }))).toBe(
      "Unavailable",
    )
    expect(appendFailure("s", "any")({ type: "unavailable", message: "down" })).toMatchObject({
      _tag: "StoreError",
      reason: "Unavailable",
    })
  })

  it("reports an oversized append as InvalidRequest and a deleted stream as Corrupt", () => {
    expect(reasonOf({ type: "maximum-append-size-exceeded" })).toBe("InvalidRequest")
    expect(reasonOf({ code: 3 })).toBe("InvalidRequest")
    expect(reasonOf({ type: "stream-deleted" })).toBe("Corrupt")
  })

  it("recognises the client's stream-not-found error, which the port reads as an empty stream", () => {
    expect(isStreamNotFound({ type: "stream-not-found" })).toBe(true)
    expect(isStreamNotFound({ type: "unavailable" })).toBe(false)
  })
})
