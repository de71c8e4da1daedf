/**
 * The replay's loop body: each recorded event, in global order, folded into
 * the state of its stream (heldStreams.ts), what it breaks reported
 * (replayFindings.ts), and its stream's invariants checked once its append
 * ends. It counts what the report counts of the events themselves.
 */

import type { GlobalPosition, RecordedEvent } from "@mizan/eventsourcing"
import { Result } from "effect"
import type { HeldStreams } from "./heldStreams.ts"
import type { ReplayFindings } from "./replayFindings.ts"
import { hashOfStreamId } from "./streamTable.ts"
import type { TrackedStream } from "./tracked.ts"

export class EventFolder {
  /** Events read, another part's among them: they end appends, and order the streams' first reads. */
  read = 0
  /** Events folded (or found undecodable) into this replayer's streams. */
  events = 0
  notificationAttempts = 0
  /**
   * The least and the greatest position replayed: the same as the first and the last of a log read in order,
   * and what a replay in parts merges to when a damaged log is not.
   */
  firstPosition: GlobalPosition | undefined
  lastPosition: GlobalPosition | undefined
  /**
   * The stream whose invariants are due. They are checked once an append
   * ends: an append's events sit side by side in the log (one stream, one
   * recorded time), and only the state after a whole append is one a
   * reader can ever load (an append is atomic). So a decision of two events
   * (a wallet transfer placed, then failed at once) is judged on the state it
   * leaves, not on the state between its events (see `endsAppend`).
   */
  #due: TrackedStream | undefined
  readonly #held: HeldStreams
  readonly #findings: ReplayFindings
  /** Whether a stream whose state is final retires (a compact replay that retires). */
  readonly #retiring: boolean

  constructor(held: HeldStreams, findings: ReplayFindings, retiring: boolean) {
    this.#held = held
    this.#findings = findings
    this.#retiring = retiring
  }

  /** Folds `record`, or reports it undecodable for `damage` (an event the store could not give back). */
  fold(record: RecordedEvent, damage: string | undefined): void {
    const tracked = this.#streamOf(record)
    if (tracked === undefined) return
    this.#count(record)
    this.#findings.checkOrder(tracked, record)
    tracked.version = record.streamVersion
    tracked.lastPosition = record.globalPosition
    tracked.lastRecordedAt = record.metadata.recordedAt
    if (damage !== undefined) this.#findings.undecodableAt(tracked, record, damage)
    else this.#evolve(tracked, record)
  }

  /** Checks the invariants of the stream whose append ended last, and retires it if its state is final. */
  checkDue(): void {
    const tracked = this.#due
    if (tracked === undefined) return
    this.#due = undefined
    const { aggregate, fold } = tracked
    if (aggregate === undefined || fold === undefined) return
    this.#findings.checkInvariants(tracked, aggregate.kind, fold)
    // A stream with a rule broken stays open: it keeps the rules it broke (a damaged log only).
    if (this.#retiring && tracked.broken === undefined && fold.ended?.(tracked.state) === true)
      this.#held.retire(tracked, aggregate, fold)
  }

  /**
   * The stream `record` folds into; undefined for another worker's, which
   * ends the due append all the same and is that worker's to fold. The
   * event continues the due stream's append when it is that stream's, read
   * right after it, at its time (`endsAppend`).
   */
  #streamOf(record: RecordedEvent): TrackedStream | undefined {
    const streamId = record.streamId
    const due = this.#due
    this.read++
    if (due !== undefined && due.streamId === streamId && record.metadata.recordedAt === due.lastRecordedAt) return due
    this.checkDue()
    const hash = hashOfStreamId(streamId)
    if (!this.#held.holdsHash(hash)) {
      this.#held.readElsewhere.add(streamId)
      return undefined
    }
    return this.#held.opened(streamId, hash, this.read)
  }

  #count(record: RecordedEvent): void {
    this.events++
    if (record.type === "NotificationAttempted") this.notificationAttempts++
    const position = record.globalPosition
    if (this.firstPosition === undefined || position < this.firstPosition) this.firstPosition = position
    if (this.lastPosition === undefined || position > this.lastPosition) this.lastPosition = position
  }

  /** Decodes `record` and folds it into its stream's state, which is then due for its check. */
  #evolve(tracked: TrackedStream, record: RecordedEvent): void {
    const { aggregate, fold } = tracked
    if (aggregate === undefined || fold === undefined) {
      this.#findings.undecodableAt(tracked, record, "no aggregate the audit knows owns this stream")
      return
    }
    const decoded = aggregate.codec.decode(record)
    if (Result.isFailure(decoded)) {
      this.#findings.undecodableAt(tracked, record, decoded.failure)
      return
    }
    try {
      tracked.state = fold.evolve(tracked.state, decoded.success)
    } catch (error) {
      this.#findings.evolveFailed(tracked, aggregate.kind, record, error)
      return
    }
    this.#due = tracked
  }
}
