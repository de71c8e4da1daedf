/**
 * Every domain lib's sealing plan, merged: what the sealed store seals in
 * Mizan's events (docs/architecture.md#sealed-personal-data). It sits
 * beside the views because the views are where every domain lib meets; the
 * apps give it to `layerSealedEventStore`.
 */
import { sealingPlan as acquiringSealingPlan } from "@mizan/acquiring"
import { sealingPlan as cardTransferSealingPlan } from "@mizan/card-transfer"
import { mergeSealingPlans, type SealedSubject, type SealingPlan } from "@mizan/eventsourcing"
import { sealingPlan as transferSealingPlan } from "@mizan/transfer"

/** The order fields a notification's copy of an order holds (its `order`, the wire's object), by the subject they belong to. */
const inNotification = (
  kind: string,
  identifiedBy: string,
  fields: ReadonlyArray<string>,
  options: Pick<SealedSubject, "identifiedInClear"> = {},
): SealedSubject => ({
  kind,
  identifiedBy: `order.${identifiedBy}`,
  fields: fields.map((field) => `order.${field}`),
  // One event type carries every kind of order: each subject only where its order holds it.
  onlyWhenIdentified: true,
  ...options,
})

/**
 * The payer's scene parameters in an acquiring order's copy: under the
 * subject its eid names, or, with no eid, the order's own payer subject
 * (the stream the notification's `orderingKey` names), as the order's
 * `OrderCreated` keeps them. Not only when identified: an email without
 * an eid is sealed too.
 */
const payerSceneInNotification: SealedSubject = {
  kind: "payer",
  identifiedBy: "order.paySceneParams.eid",
  fields: ["eid", "email", "customerId"].map((field) => `order.paySceneParams.${field}`),
  otherwiseStreamAt: "orderingKey",
}

/**
 * A scheduled notification keeps the order object it announces, personal
 * fields included: sealed under the same subjects as the order's own
 * events, so that forgetting a card forgets its notifications too.
 */
export const notificationSealingPlan: SealingPlan = {
  events: {
    NotificationScheduled: [
      inNotification("card", "cardNumber", [
        "cardNumber",
        "expiryYear",
        "expiryMonth",
        "firstName",
        "middleName",
        "lastName",
        "companyName",
      ]),
      inNotification("member", "beneficiaryIdentity", ["beneficiaryIdentity", "beneficiaryFullName"]),
      inNotification("iban", "iban", ["iban", "holderName", "accountNo", "beneficiaryAddress"]),
      inNotification("remitter", "remitterInfo", ["remitterInfo"]),
      payerSceneInNotification,
      // The payment's payer by its member id, and a DIRECTPAY card, as the order's `OrderPaid` keeps them.
      inNotification(
        "payer",
        "paymentInfo.payerMid",
        ["payerMid", "cardInfo.cardId", "cardInfo.last4", "cardInfo.expMonth", "cardInfo.expYear"].map(
          (field) => `paymentInfo.${field}`,
        ),
        { identifiedInClear: true },
      ),
    ],
  },
  streams: [],
}

export const mizanSealingPlan: SealingPlan = mergeSealingPlans(
  acquiringSealingPlan,
  cardTransferSealingPlan,
  transferSealingPlan,
  notificationSealingPlan,
)
