/**
 * A sandbox switch that makes the member directory refuse to book wallet
 * credits for one merchant, as a real directory does when it is down. A
 * wallet transfer placed meanwhile stays CREATED (libs/transfer README,
 * "Wallet CREATED is real"); once the outage ends, the merchant's retry of
 * the same request books the credit and settles the order. Lookups keep
 * working, so the order is placed and its CREATED state is what the
 * merchant sees.
 *
 * The switch is event-sourced like everything else: one small stream per
 * merchant, so it holds across restarts and never leaks to another merchant.
 */
import { type Aggregate, handleCommand, loadAggregate, makeEventCodec } from "@mizan/eventsourcing"
import { type Rejection, Timestamp } from "@mizan/kernel"
import { streamIdOf, WalletTransfer } from "@mizan/transfer"
import { Effect, Result, Schema } from "effect"

const OutageStarted = Schema.TaggedStruct("MemberDirectoryOutageStarted", { at: Timestamp })
const OutageEnded = Schema.TaggedStruct("MemberDirectoryOutageEnded", { at: Timestamp })
const OutageEvent = Schema.Union([OutageStarted, OutageEnded])
type OutageEvent = typeof OutageEvent.Type

interface SetAvailability {
  readonly available: boolean
  readonly now: Timestamp
}

interface OutageState {
  readonly available: boolean
}

/** Setting the availability it already has decides nothing, so both operations are idempotent. */
const outage: Aggregate<SetAvailability, OutageEvent, OutageState, Rejection> = {
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

const outageStreamId = (merchantId: string) => streamIdOf("sandboxMemberDirectory", merchantId)

/** Starts (available false) or ends (true) the merchant's outage; answers whether the directory is available. */
export const setMemberDirectoryAvailability = (merchantId: string, available: boolean, now: Timestamp) =>
  Effect.map(handleCommand(outage, outageStreamId(merchantId), { available, now }), ({ state }) => state.available)

/** The member directory as the merchant's wallet transfers see it in the sandbox: booking fails during an outage. */
export const sandboxMemberDirectoryOf = (merchantId: string, directory: WalletTransfer.MemberDirectory["Service"]) =>
  Effect.map(loadAggregate(outage, outageStreamId(merchantId)), ({ state }) =>
    state.available
      ? directory
      : WalletTransfer.MemberDirectory.of({
          find: directory.find,
          credit: () =>
            Effect.fail(
              new WalletTransfer.MemberDirectoryUnavailable({ detail: "the sandbox's member directory outage is on" }),
            ),
        }),
  )
