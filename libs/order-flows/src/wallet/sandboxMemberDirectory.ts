/**
 * The sandbox's member directory, an adapter of the `MemberDirectory` port
 * (memberDirectory.ts) on the store's own member-account streams: what the
 * gateway runs in sandbox mode and what tools/histories writes its wallet
 * transfers through. Here, beside its port, so that neither needs the other.
 */
import { EventStore, handleCommand, loadAggregate } from "@mizan/eventsourcing"
import { type Fils, type Sha256Hex, timestamp } from "@mizan/kernel"
import { MemberAccount, type WalletTransfer } from "@mizan/transfer"
import { Clock, Effect, Layer } from "effect"
import { MemberCreditRefused, MemberDirectory, MemberDirectoryUnavailable } from "./memberDirectory.ts"

const { aggregate, streamId } = MemberAccount
type Beneficiary = WalletTransfer.Beneficiary
type BeneficiaryIdentityType = WalletTransfer.BeneficiaryIdentityType

/** A sandbox member, from configuration: the digests the gateway computed, and an opening balance. */
export interface SandboxMember {
  /** The id the directory knows the member by, answered as `sharingMid`. */
  readonly memberId: string
  readonly memberIdDigest: Sha256Hex
  readonly phoneNoDigest: Sha256Hex
  readonly fullName: Sha256Hex
  readonly openingBalanceFils: Fils
}

const unavailable = (error: { readonly message: string }) => new MemberDirectoryUnavailable({ detail: error.message })

/**
 * The sandbox member directory: members from configuration, balances kept
 * as events on one member-account stream each, so they survive a restart on
 * a durable store. Building the layer opens every configured account (a
 * repeat opens nothing). A credit is a command on the member's stream: the
 * store's expected-version check makes the balance limit hold under
 * concurrent transfers.
 */
export const layerSandboxMemberDirectory = (
  members: ReadonlyArray<SandboxMember>,
): Layer.Layer<MemberDirectory, MemberDirectoryUnavailable, EventStore> =>
  Layer.effect(
    MemberDirectory,
    Effect.gen(function* () {
      const store = yield* EventStore
      const withStore = Effect.provideService(EventStore, store)
      // The directory keeps its own time, the clock it was built with: a member is credited by many
      // merchants, and one merchant's sandbox test clock must not date another's credits.
      const directoryClock = yield* Clock.Clock
      const onDirectoryTime = Effect.provideService(Clock.Clock, directoryClock)
      const openedAt = yield* Clock.currentTimeMillis
      for (const { memberId: _, ...member } of members)
        yield* handleCommand(aggregate, streamId(member.memberIdDigest), {
          _tag: "OpenMemberAccount",
          ...member,
          now: timestamp(openedAt),
        }).pipe(withStore, Effect.mapError(unavailable))
      const byIdentity: Record<BeneficiaryIdentityType, ReadonlyMap<string, SandboxMember>> = {
        PHONE_NO: new Map(members.map((m) => [m.phoneNoDigest, m])),
        MEMBER_ID: new Map(members.map((m) => [m.memberIdDigest, m])),
      }
      return MemberDirectory.of({
        find: (identityType, identity) => {
          const member = byIdentity[identityType].get(identity)
          if (member === undefined) return Effect.succeed<Beneficiary>({ _tag: "MemberNotFound" })
          return loadAggregate(aggregate, streamId(member.memberIdDigest)).pipe(
            withStore,
            Effect.mapError(unavailable),
            Effect.map(
              ({ state }): Beneficiary =>
                state.status === "OPEN"
                  ? {
                      _tag: "MemberFound",
                      memberId: member.memberId,
                      // The directory's own record: the account's copy reads [forgotten] once the member is forgotten.
                      fullName: member.fullName,
                      balanceFils: state.balanceFils,
                    }
                  : { _tag: "MemberNotFound" },
            ),
          )
        },
        credit: ({ identityType, identity, amount, reference, balanceMaxFils }) => {
          const member = byIdentity[identityType].get(identity)
          if (member === undefined) return Effect.fail(new MemberCreditRefused({ failCode: "BENEFICIARY_NOT_FOUND" }))
          return handleCommand(aggregate, streamId(member.memberIdDigest), {
            _tag: "CreditMemberAccount",
            reference,
            amountFils: amount,
            balanceMaxFils,
            now: timestamp(directoryClock.currentTimeMillisUnsafe()),
          }).pipe(
            withStore,
            onDirectoryTime,
            Effect.asVoid,
            Effect.mapError((error) =>
              error._tag === "MemberAccountRefusal" && error.reason === "BALANCE_LIMIT_EXCEEDED"
                ? new MemberCreditRefused({ failCode: "BENEFICIARY_BALANCE_LIMIT_EXCEEDED" })
                : unavailable(error),
            ),
          )
        },
      })
    }),
  )
