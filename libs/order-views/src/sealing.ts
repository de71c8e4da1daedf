/**
 * Every domain lib's sealing plan, merged: what the sealed store seals in
 * Mizan's events (docs/architecture.md#sealed-personal-data). It sits
 * beside the views because the views are where every domain lib meets; the
 * apps give it to `layerSealedEventStore`.
 *
 * Not sealed yet: the acquiring order's payer identity (`eid`) and its
 * sharing identities, which sit inside nested objects and lists of the
 * order's request (plans seal top-level fields); see the CHANGELOG.
 */
import { sealingPlan as cardTransferSealingPlan } from "@mizan/card-transfer"
import { mergeSealingPlans, type SealingPlan } from "@mizan/eventsourcing"
import { sealingPlan as transferSealingPlan } from "@mizan/transfer"

export const mizanSealingPlan: SealingPlan = mergeSealingPlans(cardTransferSealingPlan, transferSealingPlan)
