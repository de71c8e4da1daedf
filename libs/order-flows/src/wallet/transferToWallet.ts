import { type EventStore, handleCommand, type StoreError, type VersionConflict } from "@mizan/eventsourcing"
import type { Rejection, Sha256Hex, Timestamp } from "@mizan/kernel"
import { WalletTransfer } from "@mizan/transfer"
import { Effect } from "effect"
import { createIndexedOrder } from "../createIndexed.ts"
import { MemberDirectory, type MemberDirectoryUnavailable } from "./memberDirectory.ts"

const { aggregate, streamId, beneficiaryBalanceMaxFils } = WalletTransfer
type CreditOutcome = WalletTransfer.CreditOutcome

/** A step of the wallet transfer flow: the order it leaves, on the store, through the member directory. */
type WalletTransferStep = Effect.Effect<
  WalletTransfer.WalletTransferOrder,
  Rejection | MemberDirectoryUnavailable | StoreError | VersionConflict,
  EventStore | MemberDirectory
>

export type WalletTransferInput = Omit<WalletTransfer.PlaceWalletTransfer, "_tag" | "beneficiary">

/**
 * The wallet transfer operation, end to end:
 *
 * 1. look the beneficiary up in the member directory;
 * 2. place the order and index its orderNo in one write (`createIndexedOrder`):
 *    it fails at once on a broken rule, or stays CREATED;
 * 3. a CREATED order asks the directory to credit the member (idempotent by
 *    the order's orderNo, refused atomically beyond AED 20,000);
 * 4. the credit's outcome settles the order: SUCCESS, or FAILURE.
 *
 * A crash or an unavailable directory between 2 and 4 leaves the order
 * CREATED; the service's recovery (`completeHalfDone`) or the merchant's
 * retry of the same request runs 3 and 4 again, and the credit's reference
 * keeps it from being booked twice.
 */
export const transferToWallet = (input: WalletTransferInput): WalletTransferStep =>
  Effect.gen(function* () {
    const directory = yield* MemberDirectory
    const { request } = input
    const id = streamId(input.merchantId, request.merchantOrderNo)
    const beneficiary = yield* directory.find(request.beneficiaryIdentityType, request.beneficiaryIdentity)
    const order = yield* createIndexedOrder(
      aggregate,
      id,
      { _tag: "PlaceWalletTransfer", ...input, beneficiary },
      "walletTransfer",
      ({ state }) =>
        state.status === "ABSENT" ? Effect.die(new Error(`${id}: placing decided no order`)) : Effect.succeed(state),
    )
    if (order.status !== "CREATED") return order
    return yield* creditAndSettle(order, request.beneficiaryIdentity, input.now)
  }).pipe(
    Effect.withSpan("OrderFlows.transferToWallet", { attributes: { merchantOrderNo: input.request.merchantOrderNo } }),
  )

/**
 * Steps 3 and 4 of a CREATED wallet transfer: the member credited (by the
 * beneficiary's identity digest, idempotent by the order's orderNo), then
 * the order settled by the credit's outcome. Answers the order after it.
 */
export const creditAndSettle: (
  order: WalletTransfer.WalletTransferOrder,
  beneficiaryIdentity: Sha256Hex,
  now: Timestamp,
) => WalletTransferStep = Effect.fn("OrderFlows.creditAndSettle")(function* (
  order: WalletTransfer.WalletTransferOrder,
  beneficiaryIdentity: Sha256Hex,
  now: Timestamp,
) {
  const directory = yield* MemberDirectory
  const outcome: CreditOutcome = yield* directory
    .credit({
      identityType: order.beneficiaryIdentityType,
      identity: beneficiaryIdentity,
      amount: order.amountFils,
      reference: order.orderNo,
      balanceMaxFils: beneficiaryBalanceMaxFils,
      now,
    })
    .pipe(
      Effect.as<CreditOutcome>({ _tag: "Credited" }),
      Effect.catchTag("MemberCreditRefused", (refused) =>
        Effect.succeed<CreditOutcome>({ _tag: "NotCredited", failCode: refused.failCode }),
      ),
    )
  const settled = yield* handleCommand(aggregate, streamId(order.merchantId, order.merchantOrderNo), {
    _tag: "SettleWalletTransfer",
    merchantId: order.merchantId,
    now,
    outcome,
  })
  return settled.state.status === "ABSENT" ? order : settled.state
})
