/**
 * The streams a compact replay has retired: streams whose state is final
 * (`ended`, auditFold.ts), kept in columns, one array per field, instead of
 * one `TrackedStream` object each. Most streams of a log end (a written
 * order-number index, a refund or a transfer that succeeded or failed), and
 * an object per stream, its boxed recorded time and position and its table
 * entry cost more than their numbers (README.md, Memory).
 *
 * A retired stream keeps its id, version, last position and recorded time,
 * when it was first read, its aggregate and its state, which is at once what
 * the rules that span streams read of it (crossStream.ts) and what an event
 * after its end (a damaged log) folds into: the replayer then revives it, an
 * open stream again with the same state and numbers, so that the report is
 * the one a replay without retirement gives, finding for finding.
 */

import type { GlobalPosition } from "@mizan/eventsourcing"
import type { AuditedAggregate } from "../model/registry.ts"

/** A retired stream's fields, as the replayer retires and revives it. */
export interface RetiredFields {
  readonly streamId: string
  readonly aggregate: AuditedAggregate
  readonly state: unknown
  readonly version: number
  readonly lastPosition: GlobalPosition
  readonly lastRecordedAt: number
  readonly firstRead: number
}

export class RetiredStreams {
  readonly #ids: Array<string> = []
  /** Undefined at a revived stream's index: the slot is no one's any more. */
  readonly #aggregates: Array<AuditedAggregate | undefined> = []
  readonly #states: Array<unknown> = []
  readonly #versions: Array<number> = []
  /** Positions are 64-bit (KurrentDB's are offsets in its log); a bigint array element would be an object each. */
  #positions = new BigUint64Array(1024)
  /** 1 where the stream's rules that span streams hold for good (crossStream.ts, `holdsForGood`): not asked again. */
  #crossStreamHeld = new Uint8Array(1024)
  readonly #recordedAt: Array<number> = []
  readonly #firstRead: Array<number> = []
  #live = 0

  /** Streams retired and not revived. */
  get size(): number {
    return this.#live
  }

  /** Retires a stream of `aggregate`: its index, which the stream table keeps in its place. */
  add(stream: Omit<RetiredFields, "aggregate">, aggregate: AuditedAggregate, crossStreamHeld = false): number {
    const index = this.#ids.length
    if (index === this.#positions.length) {
      const grown = new BigUint64Array(this.#positions.length * 2)
      grown.set(this.#positions)
      this.#positions = grown
      const held = new Uint8Array(grown.length)
      held.set(this.#crossStreamHeld)
      this.#crossStreamHeld = held
    }
    this.#crossStreamHeld[index] = crossStreamHeld ? 1 : 0
    this.#ids.push(stream.streamId)
    this.#aggregates.push(aggregate)
    this.#states.push(stream.state)
    this.#versions.push(stream.version)
    this.#positions[index] = stream.lastPosition
    this.#recordedAt.push(stream.lastRecordedAt)
    this.#firstRead.push(stream.firstRead)
    this.#live++
    return index
  }

  idOf(index: number): string {
    return this.#ids[index]!
  }

  /** The aggregate kind of the retired stream at `index` (one not revived), without making its fields into an object. */
  kindOf(index: number): string {
    return this.#aggregateAt(index).kind
  }

  /** Whether the rules that span streams hold for good for the retired stream at `index` (it was retired so). */
  crossStreamHolds(index: number): boolean {
    return this.#crossStreamHeld[index] === 1
  }

  /** The retired stream at `index` (one not revived). */
  fieldsOf(index: number): RetiredFields {
    return {
      streamId: this.#ids[index]!,
      aggregate: this.#aggregateAt(index),
      state: this.#states[index],
      version: this.#versions[index]!,
      lastPosition: this.#positions[index]!,
      lastRecordedAt: this.#recordedAt[index]!,
      firstRead: this.#firstRead[index]!,
    }
  }

  /** Hands a retired stream back to be open again: its fields, its slot freed. */
  revive(index: number): RetiredFields {
    const fields = this.fieldsOf(index)
    this.#aggregates[index] = undefined
    this.#states[index] = undefined
    this.#live--
    return fields
  }

  /**
   * The aggregate of the retired stream at `index`. An index `add` never gave, or one revived since, is the
   * replayer's bug: said so here, not left to surface as an undefined aggregate read further on.
   */
  #aggregateAt(index: number): AuditedAggregate {
    const aggregate = this.#aggregates[index]
    if (aggregate === undefined) throw new Error(`No retired stream at index ${index}: never retired, or revived since`)
    return aggregate
  }

  /** The indexes of the retired streams, in the order they were retired. */
  *indexes(): IterableIterator<number> {
    for (let i = 0; i < this.#ids.length; i++) if (this.#aggregates[i] !== undefined) yield i
  }
}
