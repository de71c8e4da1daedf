import { type Aggregate, makeEventCodec } from "@mizan/eventsourcing"
import type { Rejection } from "@mizan/kernel"
import { streamIdOf } from "@mizan/kernel"
import type { Command } from "./commands.ts"
import { decide } from "./decide.ts"
import { Event, eventVersions } from "./events.ts"
import { evolve } from "./evolve.ts"
import { initialState, type State } from "./state.ts"

export const aggregate: Aggregate<Command, Event, State, Rejection> = {
  initialState,
  decide,
  evolve,
  codec: makeEventCodec(Event, eventVersions),
}

/** One stream per wallet transfer, keyed by merchant and merchantOrderNo. */
export const streamId = (merchantId: string, merchantOrderNo: string): string =>
  streamIdOf("walletTransfer", merchantId, merchantOrderNo)
