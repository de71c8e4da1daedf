/**
 * Placing a transfer order: the order and its orderNo's index in one
 * write; a repeat answers the first order and indexes its number, which
 * heals a first request cut short between the two.
 */
import { it } from "@effect/vitest"
import { BankCardTransfer } from "@mizan/card-transfer"
import { cardPlacedAt, placeCardTransfer } from "@mizan/card-transfer/testing"
import { type EventStore, layerMemory } from "@mizan/eventsourcing"
import { fils } from "@mizan/kernel"
import { BankTransfer, WalletTransfer } from "@mizan/transfer"
import { digestOf, placeBankTransfer, placeWalletTransfer } from "@mizan/transfer/testing"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import * as Flows from "../src/index.ts"
import { cutAfterTheFirstPart, withWritesRecorded } from "./stores.ts"

const merchantId = "M1"
const now = cardPlacedAt
const onMemoryStore = Effect.provide(layerMemory)

/** A placement under a given orderNo, on the store the test provides. */
type Place<E> = (orderNo: string) => Effect.Effect<{ readonly orderNo: string }, E, EventStore>

/** A placement's writes: the order and its index in one appendMany, then `later` (each a write's streams). */
const itWritesTheOrderAndItsIndexAtOnce = <E>(
  kind: Flows.OrderKind,
  stream: string,
  place: Place<E>,
  later: ReadonlyArray<ReadonlyArray<string>> = [],
) =>
  it.effect("writes the order and its orderNo's index in one appendMany", () =>
    Effect.gen(function* () {
      const { answer, writes } = yield* withWritesRecorded(place("N-1"))
      expect(answer.orderNo).toBe("N-1")
      expect(writes).toEqual([[stream, Flows.orderIndexStreamId(merchantId, "N-1")], ...later])
      expect(yield* Flows.findByOrderNo(merchantId, "N-1", kind)).toBe(stream)
    }).pipe(onMemoryStore),
  )

/** The repeat and the heal, the same for every kind whose decider takes a repeat (it decides nothing). */
const itAnswersRepeatsAndHeals = <E>(kind: Flows.OrderKind, stream: string, place: Place<E>) => {
  it.effect("answers a repeat with the first order, its number indexed and the repeat's not", () =>
    Effect.gen(function* () {
      yield* place("N-1")
      expect((yield* place("N-2")).orderNo).toBe("N-1")
      expect(yield* Flows.findByOrderNo(merchantId, "N-1", kind)).toBe(stream)
      expect(yield* Flows.findByOrderNo(merchantId, "N-2", kind)).toBeUndefined()
    }).pipe(onMemoryStore),
  )

  it.effect("heals an order written without its index when the request is retried", () =>
    Effect.gen(function* () {
      expect(yield* cutAfterTheFirstPart(place("N-1"))).toMatchObject({ _tag: "StoreError" })
      expect(yield* Flows.findByOrderNo(merchantId, "N-1", kind)).toBeUndefined()
      expect((yield* place("N-2")).orderNo).toBe("N-1")
      expect(yield* Flows.findByOrderNo(merchantId, "N-1", kind)).toBe(stream)
    }).pipe(onMemoryStore),
  )
}

describe("placing a bank transfer", () => {
  const stream = BankTransfer.streamId(merchantId, "P-1")
  const place = (orderNo: string) =>
    Flows.placeTransfer(
      BankTransfer.aggregate,
      stream,
      placeBankTransfer({ now, holderName: digestOf(1), iban: digestOf(2), orderNo }),
      "bankTransfer",
    )

  itWritesTheOrderAndItsIndexAtOnce("bankTransfer", stream, place)
  itAnswersRepeatsAndHeals("bankTransfer", stream, place)
})

describe("placing a bank card transfer", () => {
  const stream = BankCardTransfer.streamId(merchantId, "K-1")
  const place = (orderNo: string) =>
    Flows.placeTransfer(BankCardTransfer.aggregate, stream, { ...placeCardTransfer(), orderNo }, "cardTransfer")

  itWritesTheOrderAndItsIndexAtOnce("cardTransfer", stream, place)

  it.effect("answers a resubmission with the decider's refusal (62029), indexing nothing new", () =>
    Effect.gen(function* () {
      yield* place("N-1")
      expect(yield* Effect.flip(place("N-2"))).toMatchObject({ _tag: "Rejection", code: "ORDER_CREATED" })
      expect(yield* Flows.findByOrderNo(merchantId, "N-2", "cardTransfer")).toBeUndefined()
      expect(yield* Flows.findByOrderNo(merchantId, "N-1", "cardTransfer")).toBe(stream)
    }).pipe(onMemoryStore),
  )
})

describe("a wallet transfer", () => {
  const stream = WalletTransfer.streamId(merchantId, "W-1")
  const directory = Flows.MemberDirectory.of({
    find: () => Effect.succeed({ _tag: "MemberFound", fullName: digestOf(3), balanceFils: fils(0) }),
    credit: () => Effect.void,
  })
  const transfer = (orderNo: string) => {
    // The command's beneficiary is left out: the flow looks the member up itself.
    const { _tag, beneficiary, ...input } = placeWalletTransfer({
      now,
      orderNo,
      beneficiaryIdentity: digestOf(4),
      beneficiary: { _tag: "MemberNotFound" },
    })
    return Effect.provideService(Flows.transferToWallet(input), Flows.MemberDirectory, directory)
  }

  // The settlement follows the placement, on the order's stream alone.
  itWritesTheOrderAndItsIndexAtOnce("walletTransfer", stream, transfer, [[stream]])
  itAnswersRepeatsAndHeals("walletTransfer", stream, transfer)
})
