/**
 * What the notifier announces: the status changes of every kind of order,
 * as the query operations show them. The notifier reads it, in the
 * gateway's process or in its own.
 */

import { Effect, Option } from "effect"
import type { NotificationSource } from "../announcement.ts"
import { describeAcquiringEvent } from "./acquiring.ts"
import { describeTransferEvent } from "./transfers.ts"

export const notificationSource: NotificationSource = {
  describe: (event) =>
    Effect.flatMap(describeAcquiringEvent(event), (announced) =>
      Option.isSome(announced) ? Effect.succeed(announced) : describeTransferEvent(event),
    ),
}
