/**
 * A sandbox switch that makes the member directory refuse to book wallet
 * credits for one merchant, as a real directory does when it is down. A
 * wallet transfer placed meanwhile stays CREATED (libs/transfer README,
 * "Wallet CREATED is real"); once the outage ends, the merchant's retry of
 * the same request books the credit and settles the order. Lookups keep
 * working, so the order is placed and its CREATED state is what the
 * merchant sees.
 *
 * The switch is the transfer lib's `MemberAccount.directoryOutage`: one small
 * stream per merchant, so it holds across restarts, never leaks to another
 * merchant, and the audit replays it.
 */

import { handleCommand, loadAggregate } from "@mizan/eventsourcing"
import type { Timestamp } from "@mizan/kernel"
import { MemberDirectory, MemberDirectoryUnavailable } from "@mizan/order-flows"
import { MemberAccount } from "@mizan/transfer"
import { Effect } from "effect"

const { directoryOutage: outage, directoryOutageStreamId: outageStreamId } = MemberAccount

/** Starts (available false) or ends (true) the merchant's outage; answers whether the directory is available. */
export const setMemberDirectoryAvailability = (merchantId: string, available: boolean, now: Timestamp) =>
  Effect.map(handleCommand(outage, outageStreamId(merchantId), { available, now }), ({ state }) => state.available)

/** The member directory as the merchant's wallet transfers see it in the sandbox: booking fails during an outage. */
export const sandboxMemberDirectoryOf = (merchantId: string, directory: MemberDirectory["Service"]) =>
  Effect.map(loadAggregate(outage, outageStreamId(merchantId)), ({ state }) =>
    state.available
      ? directory
      : MemberDirectory.of({
          find: directory.find,
          credit: () =>
            Effect.fail(new MemberDirectoryUnavailable({ detail: "the sandbox's member directory outage is on" })),
        }),
  )
