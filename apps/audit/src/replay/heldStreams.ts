/**
 * The streams one replayer holds: the open ones in a table by id (its hash
 * computed once per event), the ones a compact replay retired in columns
 * (retiredStreams.ts) with their totals (retiredTotals.ts), and, in a
 * worker of a parallel replay, the other parts' streams read lately. It
 * opens, retires and revives streams, and answers them to the rules that
 * span streams and to the library's readers.
 */

import { logStart } from "@mizan/eventsourcing"
import type { AuditFold } from "../model/auditFold.ts"
import type { AuditedAggregate } from "../model/registry.ts"
import { aggregateOf } from "../model/registry.ts"
import { askingKinds, type CrossStreamSubject, factsOfState, holdsForGood, type StreamFacts } from "./crossStream.ts"
import { RecentIds } from "./recentIds.ts"
import { RetiredStreams } from "./retiredStreams.ts"
import { RetiredTotals } from "./retiredTotals.ts"
import { hashOfStreamId, StreamTable, workerOfHash } from "./streamTable.ts"
import { type Partition, placeOf, type TrackedStream, type TrackedStreams } from "./tracked.ts"

/**
 * How many of other parts' streams a part remembers as read lately (`RecentIds`):
 * enough for an index to find its stream among the appends of other writers
 * that came between the two, few enough to search at each index.
 */
const readElsewhereRemembered = 32

export class HeldStreams {
  readonly retired = new RetiredStreams()
  readonly retiredTotals = new RetiredTotals()
  readonly table = new StreamTable<TrackedStream>((index) => this.retired.idOf(index))
  /** Other parts' streams read last: most indexes name one of these when their part does not hold the stream. */
  readonly readElsewhere = new RecentIds(readElsewhereRemembered)
  readonly #entries: ReadonlyArray<AuditedAggregate>
  readonly #folds: ReadonlyMap<AuditedAggregate, AuditFold>
  readonly #partition: Partition | undefined

  constructor(
    entries: ReadonlyArray<AuditedAggregate>,
    folds: ReadonlyMap<AuditedAggregate, AuditFold>,
    partition: Partition | undefined,
  ) {
    this.#entries = entries
    this.#folds = folds
    this.#partition = partition
  }

  /** Whether this replayer holds the streams whose id hashes to `hash`: every stream without a partition. */
  holdsHash(hash: number): boolean {
    return this.#partition === undefined || workerOfHash(hash, this.#partition.count) === this.#partition.index
  }

  /** The stream of this id and hash, open: found open, revived if it retired, or tracked from now on. */
  opened(streamId: string, hash: number, read: number): TrackedStream {
    const slot = this.table.getHashed(streamId, hash)
    return slot === undefined
      ? this.#track(streamId, hash, read)
      : typeof slot === "number"
        ? this.#revive(slot, hash)
        : slot
  }

  /** A stream first read now, `read` events into the log. */
  #track(streamId: string, hash: number, read: number): TrackedStream {
    const aggregate = aggregateOf(streamId, this.#entries)
    const fold = aggregate === undefined ? undefined : this.#folds.get(aggregate)
    const tracked: TrackedStream = {
      streamId,
      aggregate,
      fold,
      state: fold?.initial(),
      version: 0,
      lastPosition: logStart,
      lastRecordedAt: 0,
      broken: undefined,
      firstRead: read,
    }
    this.table.add(tracked, hash)
    return tracked
  }

  /** Retires an open stream whose state is final: an append left it so, and no rule of it is broken. */
  retire(tracked: TrackedStream, aggregate: AuditedAggregate, fold: AuditFold): void {
    this.retiredTotals.add(aggregate, fold, tracked.state, 1)
    const index = this.retired.add(tracked, aggregate, holdsForGood(aggregate.kind, tracked.state, this.readAlready))
    this.table.replace(tracked.streamId, hashOfStreamId(tracked.streamId), index)
  }

  /** A retired stream open again, as it was when it retired: an event came after its end. */
  #revive(index: number, hash: number): TrackedStream {
    const { aggregate, ...fields } = this.retired.revive(index)
    const fold = this.#folds.get(aggregate)!
    this.retiredTotals.add(aggregate, fold, fields.state, -1)
    const tracked: TrackedStream = { ...fields, aggregate, fold, broken: undefined }
    this.table.replace(tracked.streamId, hash, tracked)
    return tracked
  }

  /** A retired stream as a `TrackedStream`, for the library's readers. */
  #retiredView(index: number): TrackedStream {
    const { aggregate, ...fields } = this.retired.fieldsOf(index)
    return { ...fields, aggregate, fold: this.#folds.get(aggregate), broken: undefined }
  }

  /**
   * Whether the log read so far holds a stream: one this replayer holds (the
   * id hashed once, for the part and the table), or one of another part's
   * read lately. False for another part's stream read longer ago: the rules
   * then ask that part at the end, as for a stream not read at all.
   */
  readonly readAlready = (streamId: string): boolean => {
    const hash = hashOfStreamId(streamId)
    return this.holdsHash(hash) ? this.table.getHashed(streamId, hash) !== undefined : this.readElsewhere.has(streamId)
  }

  /** What the rules that span streams read of a stream held, undefined for one not held. */
  readonly factsOf = (streamId: string): StreamFacts | undefined => {
    const slot = this.table.get(streamId)
    if (slot === undefined) return undefined
    if (typeof slot !== "number") return factsOfState(slot.aggregate?.kind, slot.state)
    const stream = this.retired.fieldsOf(slot)
    return factsOfState(stream.aggregate.kind, stream.state)
  };

  /**
   * The streams held, open or retired, whose rules span streams (`askingKinds`),
   * as those rules read them (they order what they find). The others, most of
   * the streams, are passed over before an object is made of them.
   */
  *subjects(): Generator<CrossStreamSubject> {
    for (const tracked of this.table.open()) {
      if (tracked.aggregate === undefined || !askingKinds.has(tracked.aggregate.kind)) continue
      yield { ...placeOf(tracked), kind: tracked.aggregate.kind, state: tracked.state, firstRead: tracked.firstRead }
    }
    for (const index of this.retired.indexes()) {
      if (!askingKinds.has(this.retired.kindOf(index)) || this.retired.crossStreamHolds(index)) continue
      const stream = this.retired.fieldsOf(index)
      yield {
        streamId: stream.streamId,
        streamVersion: stream.version,
        globalPosition: stream.lastPosition,
        kind: stream.aggregate.kind,
        state: stream.state,
        firstRead: stream.firstRead,
      }
    }
  }

  /** The streams as the library's readers see them, retired ones made up as they are asked for. */
  view(): TrackedStreams {
    const { table, retired } = this
    const trackedOf = (streamId: string): TrackedStream | undefined => {
      const slot = table.get(streamId)
      return typeof slot === "number" ? this.#retiredView(slot) : slot
    }
    return {
      get size() {
        return table.size
      },
      get retired() {
        return retired.size
      },
      get: trackedOf,
      has: (streamId) => table.get(streamId) !== undefined,
      isRetired: (streamId) => typeof table.get(streamId) === "number",
      values: () => {
        const all = [...table.open()]
        if (retired.size === 0) return all.values()
        for (const index of retired.indexes()) all.push(this.#retiredView(index))
        return all.sort((a, b) => a.firstRead - b.firstRead).values()
      },
    }
  }
}
