/**
 * Every domain lib's sealing plan, merged: what the sealed store seals in
 * Mizan's events (docs/architecture.md#sealed-personal-data). It sits
 * beside the views because the views are where every domain lib meets; the
 * apps give it to `layerSealedEventStore`.
 */
import { sealingPlan as acquiringSealingPlan } from "@mizan/acquiring"
import { sealingPlan as cardTransferSealingPlan } from "@mizan/card-transfer"
import { mergeSealingPlans, type SealingPlan } from "@mizan/eventsourcing"
import { sealingPlan as transferSealingPlan } from "@mizan/transfer"

/** The order fields a notification's copy of an order holds (its `order`, the wire's object), by the subject they belong to. */
const inNotification = (kind: string, identifiedBy: string, fields: ReadonlyArray<string>) => ({
  kind,
  identifiedBy: `order.${identifiedBy}`,
  fields: fields.map((field) => `order.${field}`),
  // One event type carries every kind of order: each subject only where its order holds it.
  onlyWhenIdentified: true,
})

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
      inNotification("payer", "paySceneParams.eid", ["paySceneParams.eid"]),
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
