import type { SealingPlan } from "@mizan/eventsourcing"

/** Each sharing member of a request's list is its own subject: a wallet member, by its identity's digest. */
const sharingMembers = {
  kind: "member",
  identifiedBy: "request.sharingParamList[].sharingIdentity",
  fields: ["request.sharingParamList[].sharingIdentity"],
}

/** The payer's fields of the scene parameters, as the request gave them and as they are in force. */
const payerSceneFields = (params: string) => [`${params}.eid`, `${params}.email`, `${params}.customerId`]

/**
 * The payer as an order is created: the person its `eid` names (a national
 * identity number's digest), with the email and customer id the merchant
 * sent beside it, in the request and in the scene parameters in force.
 * The payer has no member id yet (whoever pays may not be known until
 * then), so an order without an eid keeps them under a payer subject of
 * its own, keyed by the order: `Sealing.forgetOfStream` forgets it.
 */
const payerAtCreation = {
  kind: "payer",
  identifiedBy: "request.paySceneParams.eid",
  fields: [...payerSceneFields("request.paySceneParams"), ...payerSceneFields("paySceneParams")],
}

/** The card fields of a DIRECTPAY payment that tell its card and holder apart; its brand and type stay in clear. */
const cardInfoFields = ["cardId", "last4", "expMonth", "expYear"] as const

/**
 * The payer as a payment records it, keyed by its member id (`payerMid`):
 * the one id every payment of that person carries, so forgetting it
 * reaches all of them, whichever order and merchant. The member id is held
 * in clear, so the subject is keyed by its SHA-256 hex, as `forget
 * payer:VALUE` digests VALUE (SealedSubject.identifiedInClear).
 */
const payerOfPayment = {
  kind: "payer",
  identifiedBy: "payer.payerMid",
  identifiedInClear: true,
  fields: [
    "payer.payerMid",
    "payer.mobileNumberMask",
    "payer.deviceId",
    "payer.ipAddress",
    ...cardInfoFields.map((field) => `cardInfo.${field}`),
  ],
}

/**
 * The personal fields of an acquiring order, by data subject:
 * - the payer, a subject of the kind `payer`: at creation the one its
 *   `eid` names (or the order's own), at payment the one its member id
 *   names, with the masked mobile number, device, IP address and the
 *   DIRECTPAY card; a failed attempt's member id is that payer's too;
 * - each sharing member, a subject of the kind `member`, the one a wallet
 *   transfer's beneficiary is, keyed by the same identity digest (a member
 *   id's or a phone number's): forgetting a member forgets the shares it
 *   was named in, item by item, on the order and on its refunds.
 * Refund orders record no sharing identity (only the members' positions),
 * so @mizan/refund has no plan. Each event schema reads a forgotten field
 * as `[forgotten]`.
 */
export const sealingPlan: SealingPlan = {
  events: {
    OrderCreated: [payerAtCreation, sharingMembers],
    PaymentAttemptFailed: [{ kind: "payer", identifiedBy: "payerMid", identifiedInClear: true, fields: ["payerMid"] }],
    OrderPaid: [payerOfPayment],
    RefundReserved: [sharingMembers],
  },
  streams: [],
}
