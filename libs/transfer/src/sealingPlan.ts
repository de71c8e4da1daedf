import type { SealingPlan } from "@mizan/eventsourcing"

/**
 * The personal fields of the transfers, by data subject:
 * - a wallet member, identified by the identity digest the transfer or the
 *   account names (a member id's or a phone number's): forget each identity
 *   a member has to forget the member;
 * - an IBAN holder, identified by the IBAN's digest: name, IBAN, account
 *   number and address;
 * - a deposit's remitter, identified by the remitter text's digest.
 * A member account's stream id holds the member id's digest, so the store
 * keys it too. Each event schema reads a forgotten field as `[forgotten]`.
 */
export const sealingPlan: SealingPlan = {
  events: {
    WalletTransferPlaced: [
      { kind: "member", identifiedBy: "beneficiaryIdentity", fields: ["beneficiaryIdentity", "beneficiaryFullName"] },
    ],
    MemberAccountOpened: [
      { kind: "member", identifiedBy: "memberIdDigest", fields: ["memberIdDigest", "phoneNoDigest", "fullName"] },
    ],
    BankTransferPlaced: [
      { kind: "iban", identifiedBy: "iban", fields: ["iban", "holderName", "accountNo", "beneficiaryAddress"] },
    ],
    VamDepositReceived: [{ kind: "remitter", identifiedBy: "remitterInfo", fields: ["remitterInfo"] }],
  },
  streams: [{ category: "memberAccount" }],
}
