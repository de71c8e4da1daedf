/**
 * What the notifier announces (apps/notifier's NotificationSource): the
 * status changes of every kind of order, as the gateway's query operations
 * show them.
 */
import type { NotificationSource } from "@mizan/notifier"
import { Effect, Option } from "effect"
import { Gateway } from "../gateway.ts"
import { describeAcquiringEvent } from "./acquiring.ts"
import { describeTransferEvent } from "./transfers.ts"

export const notificationSource = (gateway: Gateway["Service"]): NotificationSource => ({
  describe: (event) =>
    Effect.flatMap(describeAcquiringEvent(event), (announced) =>
      Option.isSome(announced)
        ? Effect.succeed(announced)
        : describeTransferEvent(event).pipe(Effect.provideService(Gateway, gateway)),
    ),
})
