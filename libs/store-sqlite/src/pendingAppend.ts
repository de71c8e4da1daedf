/** An append as it waits for the group-commit writer: its parts, their events encoded, and how it hears its outcome. */
import type { AppendResult, ExpectedVersion, StoreError, VersionConflict } from "@mizan/eventsourcing"
import type { Effect } from "effect"
import type { EncodedEvent } from "./rows.ts"

/** Each part's result, in the parts' order; or why none was written. */
export type AppendOutcome = Effect.Effect<ReadonlyArray<AppendResult>, VersionConflict | StoreError>

/** One stream's part of a pending append, its events encoded. */
export interface EncodedPart {
  readonly streamId: string
  readonly expected: ExpectedVersion
  readonly events: ReadonlyArray<EncodedEvent>
}

/** An append waiting for the writer: one part (`append`) or several (`appendMany`), written all or none. */
export interface PendingAppend {
  readonly parts: ReadonlyArray<EncodedPart>
  readonly recordedAt: number
  /** Hands the append its outcome; called once, after its transaction ended and, if it committed, became durable. */
  readonly settle: (outcome: AppendOutcome) => void
  /** Set when the caller was interrupted before the append was written: it is then skipped. */
  cancelled: boolean
}

/** How many events an append carries, over all its parts. */
export const eventsOf = (append: PendingAppend): number => {
  let events = 0
  for (const part of append.parts) events += part.events.length
  return events
}
