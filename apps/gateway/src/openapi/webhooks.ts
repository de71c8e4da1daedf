/**
 * The notifications the service POSTs to an order's `notifyUrl`, as the
 * description's `webhooks`: one per order key (libs/protocol's
 * notifications.ts), with the body the notifier sends (built by
 * `notificationBody`), the `sign` header, the reply that counts as
 * delivered (`isAcknowledgement`) and the retry schedule
 * (libs/notification's schedule.ts).
 */
import { retryScheduleMinutes } from "@mizan/notification"
import { jsonContentType, type NotificationOrderKey, notificationBodyOf, notificationOrderKeys } from "@mizan/protocol"
import { compileSchemas } from "./compile.ts"
import type { SharedComponents } from "./shared.ts"
import { componentRef, type Json } from "./tree.ts"

/** When each attempt of a round goes out, in minutes after the first: 0, 2, 12, 22, 82, 202, 562, 1462. */
export const attemptDueMinutes = (): ReadonlyArray<number> => {
  let sinceFirst = 0
  return [0, ...retryScheduleMinutes.map((minutes) => (sinceFirst += minutes))]
}

const describeSchedule = (): string => {
  const due = attemptDueMinutes()
  return `A notification is delivered when the merchant answers HTTP 2xx with the body \`{"response":"SUCCESS"}\` or the plain text \`SUCCESS\` (any letter case). Anything else (another status, another body, no answer within 10 seconds, a refused connection) is a failed attempt, made again on the schedule: ${due.length} attempts, at ${due.map((m) => `+${m}`).join(", ")} minutes after the first (${retryScheduleMinutes.join(", ")} minutes after the previous one). A new status of the order opens a new round with a new \`notify_id\`.`
}

/** `acquireOrder` -> `AcquireOrderNotification`. */
export const notificationComponentName = (key: NotificationOrderKey): string =>
  `${key.charAt(0).toUpperCase()}${key.slice(1)}Notification`

const acknowledgement: Json = {
  type: "object",
  properties: {
    response: { type: "string", enum: ["SUCCESS"], description: "SUCCESS acknowledges the notification." },
  },
  required: ["response"],
}

/** The notification bodies as components, and the `webhooks` object that posts them. */
export const notificationWebhooks = (shared: SharedComponents) => {
  const compiled = compileSchemas(notificationOrderKeys.map((key) => notificationBodyOf(key))).schemas
  const schemas: Record<string, Json> = Object.fromEntries(
    notificationOrderKeys.map((key, i) => [
      notificationComponentName(key),
      {
        ...shared.withRefs(compiled[i] ?? {}, "answer"),
        description: `The body of a notification that an order changed: the order as it is now, under \`${key}\`.`,
      },
    ]),
  )
  const webhooks = Object.fromEntries(
    notificationOrderKeys.map((key) => [
      key,
      {
        post: {
          operationId: `notify.${key}`,
          summary: `The ${key} changed status`,
          description: `The service POSTs this to the order's \`notifyUrl\` when the ${key} reaches a new status. The body is signed: verify the \`sign\` header with the service's public key over the raw body bytes before trusting it, and drop a \`notify_id\` already handled (a delivery may repeat).\n\n${describeSchedule()}`,
          tags: ["notifications"],
          security: [],
          parameters: [
            {
              name: "sign",
              in: "header",
              required: true,
              description:
                "Standard Base64 of the service's SHA256withRSA (RSA PKCS#1 v1.5 over SHA-256) signature of the exact raw body bytes: verify it with the service's public key.",
              schema: { type: "string" },
            },
          ],
          requestBody: {
            required: true,
            content: { [jsonContentType]: { schema: componentRef(notificationComponentName(key)) } },
          },
          responses: {
            "200": {
              description: "Delivered: any 2xx status with this body (JSON, or the plain text SUCCESS).",
              content: {
                [jsonContentType]: { schema: acknowledgement },
                "text/plain": { schema: { type: "string", enum: ["SUCCESS"] } },
              },
            },
            "4XX": { description: "Not delivered: the attempt failed and is made again on the schedule." },
            "5XX": { description: "Not delivered: the attempt failed and is made again on the schedule." },
          },
          "x-retry-schedule-minutes": attemptDueMinutes(),
        },
      },
    ]),
  )
  return { schemas, webhooks, scheduleText: describeSchedule() }
}
