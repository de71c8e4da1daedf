import type { SealingPlan } from "@mizan/eventsourcing"

/**
 * The personal fields of a bank card transfer: every part of the
 * card and its holder's names belong to the card, identified by its
 * number's digest, so that forgetting `card:<digest>` forgets them all.
 * The event schema reads each of them as `[forgotten]` afterwards.
 */
export const sealingPlan: SealingPlan = {
  events: {
    BankCardTransferPlaced: [
      {
        kind: "card",
        identifiedBy: "cardNumber",
        fields: [
          "cardNumber",
          "cardLast4",
          "expiryYear",
          "expiryMonth",
          "firstName",
          "middleName",
          "lastName",
          "companyName",
        ],
      },
    ],
  },
  streams: [],
}
