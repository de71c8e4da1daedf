/**
 * A generated history is many stories told at once: an order created, paid
 * days later, refunded weeks after that, among thousands of others. Each
 * story is a chain of steps; a step runs at its moment of simulated time and
 * answers the steps that follow it and how much later they happen. The
 * generator interleaves every story's steps in time order (generate.ts).
 */

import type { EventStore, StoreError, VersionConflict } from "@mizan/eventsourcing"
import type { Rejection } from "@mizan/kernel"
import type { MemberDirectory, MemberDirectoryUnavailable } from "@mizan/order-flows"
import { Effect } from "effect"

export type StepError = Rejection | StoreError | VersionConflict | MemberDirectoryUnavailable
export type StepServices = EventStore | MemberDirectory

/** What one step of a story does now; it answers what happens next. A refusal (Rejection) ends its story. */
export type Step = Effect.Effect<ReadonlyArray<Next>, StepError, StepServices>

export interface Next {
  readonly afterMs: number
  readonly step: Step
}

export const after = (afterMs: number, step: Step): Next => ({ afterMs, step })

/** The story ends here. */
export const theEnd: ReadonlyArray<Next> = []

/** A step whose commands are built when it runs, so that they carry the time of that moment. */
export const stepLater = (body: () => Step): Step => Effect.suspend(body)
