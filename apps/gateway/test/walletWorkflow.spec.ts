/**
 * The wallet transfer flow (libs/order-flows) on the sandbox's member
 * directory (balances as events on the store): a credit is booked once
 * however often the request is retried, a crash between placing and
 * crediting is finished by the retry, and no member goes above AED 20,000
 * whatever transfers run at once.
 */
import { createHash } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { test } from "@fast-check/vitest"
import { EventStore, handleCommand, layerMemory, loadAggregate } from "@mizan/eventsourcing"
import { fils, type Sha256Hex, timestamp } from "@mizan/kernel"
import {
  layerSandboxMemberDirectory,
  MemberDirectory,
  transferToWallet,
  type WalletTransferInput,
} from "@mizan/order-flows"
import { MemberAccount, WalletTransfer } from "@mizan/transfer"
import { placeWalletTransfer } from "@mizan/transfer/testing"
import { Effect, Layer } from "effect"
import fc from "fast-check"

const { aggregate, streamId } = WalletTransfer
const sha256 = (text: string): Sha256Hex => createHash("sha256").update(text, "utf8").digest("hex") as Sha256Hex
const now = timestamp(Date.parse("2026-03-01T10:00:00Z"))
const phone = sha256("+971501234567")
const fullName = sha256("AISHA AL MANSOURI")

const place = (request: Partial<WalletTransfer.WalletTransferRequest> = {}): WalletTransfer.PlaceWalletTransfer =>
  placeWalletTransfer({
    now,
    beneficiaryIdentity: phone,
    beneficiary: { _tag: "MemberFound", fullName, balanceFils: fils(500_000) },
    request,
  })

describe("the wallet transfer workflow on the sandbox member directory", () => {
  const aisha = {
    memberId: "100000000001",
    memberIdDigest: sha256("100000000001"),
    phoneNoDigest: phone,
    fullName,
    openingBalanceFils: fils(1_500_000),
  }
  const layer = layerSandboxMemberDirectory([aisha]).pipe(Layer.provideMerge(layerMemory))
  const input = (merchantOrderNo: string, amount: number): WalletTransferInput => {
    const { _tag, beneficiary, ...rest } = place({ merchantOrderNo, amountFils: fils(amount) })
    return { ...rest, orderNo: `T-${merchantOrderNo}` }
  }
  const balance = Effect.map(
    loadAggregate(MemberAccount.aggregate, MemberAccount.streamId(aisha.memberIdDigest)),
    ({ state }) => (state.status === "OPEN" ? state.balanceFils : -1),
  )

  it.effect("credits the member and records SUCCESS, once, however often the request is retried", () =>
    Effect.gen(function* () {
      const first = yield* transferToWallet(input("W-1", 100_000))
      const retry = yield* transferToWallet({ ...input("W-1", 100_000), orderNo: "T-retry" })
      expect(first.status).toBe("SUCCESS")
      expect(retry).toEqual(first)
      expect(yield* balance).toBe(1_600_000)
    }).pipe(Effect.provide(layer)),
  )

  it.effect("finishes a transfer left CREATED by a crash when the request is retried", () =>
    Effect.gen(function* () {
      // The crash: the order was placed, the credit never ran.
      yield* handleCommand(aggregate, streamId("M1", "W-9"), {
        ...place({ merchantOrderNo: "W-9", amountFils: fils(50_000) }),
        orderNo: "T-W-9",
        beneficiary: { _tag: "MemberFound", fullName, balanceFils: fils(1_500_000) },
      })
      const retried = yield* transferToWallet(input("W-9", 50_000))
      expect(retried.status).toBe("SUCCESS")
      expect(yield* balance).toBe(1_550_000)
    }).pipe(Effect.provide(layer)),
  )

  it.effect("fails a transfer the member's balance cannot take", () =>
    Effect.gen(function* () {
      const order = yield* transferToWallet(input("W-2", 600_000))
      expect(order).toMatchObject({ status: "FAILURE", failCode: "BENEFICIARY_BALANCE_LIMIT_EXCEEDED" })
      expect(yield* balance).toBe(1_500_000)
    }).pipe(Effect.provide(layer)),
  )

  /** The directory, made to yield after each lookup so that concurrent transfers all decide on a stale balance. */
  const racingDirectory = Layer.effect(
    MemberDirectory,
    Effect.gen(function* () {
      const directory = yield* MemberDirectory
      return MemberDirectory.of({
        find: (type, identity) => Effect.tap(directory.find(type, identity), () => Effect.yieldNow),
        credit: directory.credit,
      })
    }),
  )
  const racingLayer = racingDirectory.pipe(
    Layer.provide(layerSandboxMemberDirectory([aisha])),
    Layer.provideMerge(layerMemory),
  )

  test.prop([fc.array(fc.integer({ min: 1, max: 400_000 }), { minLength: 2, maxLength: 8 })], { numRuns: 25 })(
    "never takes a member above AED 20,000, whatever transfers run at once",
    // fast-check drives this loop, so each run is a promise of its own.
    (amounts) =>
      Effect.runPromise(
        Effect.provide(
          Effect.gen(function* () {
            const orders = yield* Effect.all(
              amounts.map((amount, i) => transferToWallet(input(`C-${i}`, amount))),
              { concurrency: "unbounded" },
            )
            const credited = orders.filter((o) => o.status === "SUCCESS").reduce((sum, o) => sum + o.amountFils, 0)
            const final = yield* balance
            expect(final).toBeLessThanOrEqual(2_000_000)
            expect(final).toBe(1_500_000 + credited)
            expect(orders.every((o) => o.status !== "CREATED")).toBe(true)
            const stored = yield* (yield* EventStore).readStream(MemberAccount.streamId(aisha.memberIdDigest))
            expect(stored.length).toBe(1 + orders.filter((o) => o.status === "SUCCESS").length)
          }),
          racingLayer,
        ),
      ),
  )
})
