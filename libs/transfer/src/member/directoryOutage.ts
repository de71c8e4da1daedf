/**
 * A sandbox switch that makes the member directory refuse to book wallet
 * credits for one merchant, as a real directory does when it is down. A
 * wallet transfer placed meanwhile stays CREATED ("Wallet CREATED is real");
 * once the outage ends, the merchant's retry books the credit and settles
 * the order. Event-sourced like everything else (one small stream per
 * merchant), so it holds across restarts and the audit replays it.
 */
import { type Aggregate, makeEventCodec } from "@mizan/eventsourcing"
import { type BrokenRule, type Rejection, streamIdOf, Timestamp } from "@mizan/kernel"
import { Result, Schema } from "effect"

export const OutageStarted = Schema.TaggedStruct("MemberDirectoryOutageStarted", { at: Timestamp })
export const OutageEnded = Schema.TaggedStruct("MemberDirectoryOutageEnded", { at: Timestamp })
export const OutageEvent = Schema.Union([OutageStarted, OutageEnded])
export type OutageEvent = typeof OutageEvent.Type

export interface SetDirectoryAvailability {
  readonly available: boolean
  readonly now: Timestamp
}

export interface DirectoryAvailability {
  readonly available: boolean
}

/** Setting the availability it already has decides nothing, so both switches are idempotent. */
export const directoryOutage: Aggregate<SetDirectoryAvailability, OutageEvent, DirectoryAvailability, Rejection> = {
  initialState: { available: true },
  decide: ({ available, now }, state) =>
    Result.succeed(
      available === state.available
        ? []
        : [
            available
              ? { _tag: "MemberDirectoryOutageEnded", at: now }
              : { _tag: "MemberDirectoryOutageStarted", at: now },
          ],
    ),
  evolve: (_state, event) => ({ available: event._tag === "MemberDirectoryOutageEnded" }),
  codec: makeEventCodec(OutageEvent, {
    MemberDirectoryOutageStarted: { current: 1 },
    MemberDirectoryOutageEnded: { current: 1 },
  }),
}

export const directoryOutageStreamPrefix = "sandboxMemberDirectory/"

export const directoryOutageStreamId = (merchantId: string) => streamIdOf("sandboxMemberDirectory", merchantId)

/** Nothing can break: the switch is on or off. */
export const directoryOutageInvariants = (_state: DirectoryAvailability): ReadonlyArray<BrokenRule> => []
