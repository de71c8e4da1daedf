/**
 * What the notifier announces (apps/notifier's NotificationSource): the
 * status changes of every kind of order, as the gateway's query operations
 * show them. `notificationSource` is also what the notifier's own main
 * loads (`MIZAN_NOTIFICATION_SOURCE=apps/gateway/src/announce/index.ts`)
 * when it runs as a process of its own.
 */
import type { NotificationSource } from "@mizan/notifier"
import { Effect, Option } from "effect"
import { describeAcquiringEvent } from "./acquiring.ts"
import { describeTransferEvent } from "./transfers.ts"

export const notificationSource: NotificationSource = {
  describe: (event) =>
    Effect.flatMap(describeAcquiringEvent(event), (announced) =>
      Option.isSome(announced) ? Effect.succeed(announced) : describeTransferEvent(event),
    ),
}
