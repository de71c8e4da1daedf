import { type Aggregate, makeEventCodec } from "@mizan/eventsourcing"
import { streamIdOf } from "@mizan/kernel"
import type { Command } from "./commands.ts"
import { decide } from "./decide.ts"
import { Event, eventVersions } from "./events.ts"
import { evolve } from "./evolve.ts"
import type { MemberAccountRefusal } from "./refusal.ts"
import { initialState, type State } from "./state.ts"

/**
 * The sandbox's member account: a member's balance kept as events (opened
 * with an opening balance, then one event per credit), from which the
 * sandbox member directory answers.
 */
export const aggregate: Aggregate<Command, Event, State, MemberAccountRefusal> = {
  initialState,
  decide,
  evolve,
  codec: makeEventCodec(Event, eventVersions),
}

/** One stream per member, keyed by the digest of its member id. */
export const streamId = (memberIdDigest: string): string => streamIdOf("memberAccount", memberIdDigest)
