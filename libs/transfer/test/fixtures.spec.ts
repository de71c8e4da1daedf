import { readFileSync } from "node:fs"
import { join } from "node:path"
import { type Aggregate, type EventVersion, fold, type SerializedEvent } from "@mizan/eventsourcing"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { BankTransfer, MemberAccount, VamDeposit, WalletTransfer } from "../src/index.ts"
import { sha256 } from "./support.ts"

interface Fixture {
  readonly streams: ReadonlyArray<{ readonly streamId: string; readonly events: ReadonlyArray<SerializedEvent> }>
}

const fixture = (name: string): Fixture =>
  JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", `${name}.events.json`), "utf8"))

/** Decodes and folds every recorded stream; answers each stream's final state by id. */
const replay = <Command, Event, State, Error>(
  aggregate: Aggregate<Command, Event, State, Error>,
  name: string,
): ReadonlyMap<string, State> =>
  new Map(
    fixture(name).streams.map(({ streamId, events }) => {
      const decoded = events.map((event) => Result.getOrThrow(aggregate.codec.decode(event)))
      return [streamId, fold(aggregate, decoded)] as const
    }),
  )

/** Every event type at every version the codec knows appears in the fixture, so each one is proved to replay. */
const versionsRecorded = (name: string) =>
  new Set(fixture(name).streams.flatMap(({ events }) => events.map((e) => `${e.type}@${e.schemaVersion}`)))
const versionsKnown = (versions: Readonly<Record<string, EventVersion>>) =>
  new Set(Object.entries(versions).map(([type, { current }]) => `${type}@${current}`))

const replaysTo = <Command, Event, State extends { readonly status: string }, Error>(
  name: string,
  aggregate: Aggregate<Command, Event, State, Error>,
  invariants: (state: State) => ReadonlyArray<unknown>,
  statusByStreamId: Readonly<Record<string, string>>,
) => {
  it(`replays ${name} fixtures to the statuses they were recorded in, every invariant holding`, () => {
    const states = replay(aggregate, name)
    expect(Object.fromEntries([...states].map(([id, state]) => [id, state.status]))).toEqual(statusByStreamId)
    for (const state of states.values()) expect(invariants(state)).toEqual([])
  })

  it(`holds every event version of ${name} in its fixture`, () => {
    expect(versionsRecorded(name)).toEqual(versionsKnown(aggregate.codec.versions))
  })
}

const keyed = (streamId: (merchantId: string, key: string) => string, statuses: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(statuses).map(([key, status]) => [streamId("M1", key), status]))

describe("recorded events replay", () => {
  replaysTo(
    "walletTransfer",
    WalletTransfer.aggregate,
    WalletTransfer.invariants,
    keyed(WalletTransfer.streamId, {
      "W-success": "SUCCESS",
      "W-created": "CREATED",
      "W-amount-limit": "FAILURE",
      "W-not-found": "FAILURE",
      "W-name-mismatch": "FAILURE",
      "W-balance-limit": "FAILURE",
      "W-credit-refused": "FAILURE",
    }),
  )
  replaysTo(
    "bankTransfer",
    BankTransfer.aggregate,
    BankTransfer.invariants,
    keyed(BankTransfer.streamId, { "B-success-usd": "SUCCESS", "B-failure": "FAILURE", "B-created": "CREATED" }),
  )
  replaysTo(
    "vamDeposit",
    VamDeposit.aggregate,
    VamDeposit.invariants,
    keyed(VamDeposit.streamId, { "V-settled": "SUCCESS", "V-failed": "FAILED", "V-pending": "PENDING" }),
  )
  replaysTo(
    "memberAccount",
    MemberAccount.aggregate,
    MemberAccount.invariants,
    Object.fromEntries([[MemberAccount.streamId(sha256("100000000001")), "OPEN"]]),
  )

  it("replays the sandbox member account to its balance", () => {
    const [state] = replay(MemberAccount.aggregate, "memberAccount").values()
    expect(state).toMatchObject({ status: "OPEN", balanceFils: 2_000_000 })
  })

  it("keeps the bank transfer's quote exactly as recorded", () => {
    const state = replay(BankTransfer.aggregate, "bankTransfer").get(BankTransfer.streamId("M1", "B-success-usd"))
    expect(state).toMatchObject({ fundoutAmount: { currency: "USD", minorUnits: 27_230n }, rate: "0.2723" })
  })
})
