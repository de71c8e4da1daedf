/**
 * Whole wallet-transfer histories for a platform's property tests, decided
 * by the real `WalletTransfer.aggregate`: sequences of `walletCommand`
 * (amounts at AED 10,000 and one fils past it, balances filled to AED
 * 20,000 exactly or passed by a fils), with and without late retries. The
 * laws they must keep are in `laws.ts`.
 */
import { validHistories, withRetries } from "@mizan/eventsourcing/testing/properties"
import { type Timestamp, timestamp } from "@mizan/kernel"
import fc from "fast-check"
import { aggregate } from "../wallet/aggregate.ts"
import type { Command } from "../wallet/commands.ts"
import { walletCommand } from "./walletSteps.ts"

/** The merchant of the wallet transfers made here. */
export const walletMerchantId = "M1"
/** 2026-03-01T10:00:00Z: the first time a command here may carry. */
export const walletFrom: Timestamp = timestamp(Date.UTC(2026, 2, 1, 10))

/**
 * Sequences of commands against one wallet transfer (`W-1`): placements
 * within and past the limits, to found and missing members, with names that
 * match or not, now and then a blank memo (refused as INVALID_PARAMETER, as
 * the request schema refuses it at an edge), then credits and refused
 * credits, by its merchant or another.
 *
 *   fc.property(walletCommands, (commands) => myPayoutService.run(commands))
 */
export const walletCommands: fc.Arbitrary<ReadonlyArray<Command>> = fc.array(
  walletCommand(walletMerchantId, walletFrom),
  { minLength: 1, maxLength: 10 },
)

/**
 * Histories of `walletCommands`, decided by the real wallet transfer.
 *
 *   fc.property(validWalletHistories, (h) => void walletLimitsHold(h.events))
 */
export const validWalletHistories = validHistories(aggregate, walletCommands)

/**
 * `validWalletHistories` with accepted commands sent again, right after or
 * after later ones (a merchant's retried placement, a credit reported twice).
 *
 *   fc.property(walletRetries, (h) => retriesDecideNothing(WalletTransfer.aggregate)(h.commands))
 */
export const walletRetries = withRetries(aggregate, walletCommands)
