import type { Aggregate } from "@mizan/eventsourcing"
import type { Rejection } from "@mizan/kernel"
import type { Command } from "./commands.ts"
import { decide } from "./decide.ts"
import { type Event, eventCodec } from "./events.ts"
import { evolve } from "./evolve.ts"
import { initialState, type State } from "./state.ts"

/** The refund order aggregate, for `handleCommand(refundOrder, refundStreamId(...), command)`. */
export const refundOrder: Aggregate<Command, Event, State, Rejection> = {
  initialState,
  decide,
  evolve,
  codec: eventCodec,
}
