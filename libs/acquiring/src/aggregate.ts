import type { Aggregate } from "@mizan/eventsourcing"
import type { Rejection } from "@mizan/kernel"
import type { Command } from "./commands.ts"
import { decide } from "./decide.ts"
import { type Event, eventCodec } from "./events.ts"
import { evolve } from "./evolve.ts"
import { initialState, type State } from "./state.ts"

/** The acquiring order aggregate, for `handleCommand(acquiringOrder, acquiringStreamId(...), command)`. */
export const acquiringOrder: Aggregate<Command, Event, State, Rejection> = {
  initialState,
  decide,
  evolve,
  codec: eventCodec,
}
