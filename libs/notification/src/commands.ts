import { RequiredString, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import { NotificationDetails } from "./events.ts"
import { AttemptOutcome, UrlRefused } from "./outcome.ts"

/** Schedule a notification for a status change. Repeating it (a re-read of the log) decides nothing. */
export const Schedule = Schema.TaggedStruct("Schedule", { ...NotificationDetails.fields, at: Timestamp })

/** Record an attempt made at `at` and its outcome. */
export const RecordAttempt = Schema.TaggedStruct("RecordAttempt", { at: Timestamp, outcome: AttemptOutcome })

/** Stop without attempting: the notifyUrl is refused. */
export const RefuseUrl = Schema.TaggedStruct("RefuseUrl", { at: Timestamp, reason: UrlRefused })

/** An operator asks for a new round of attempts of a delivered or given-up notification. */
export const Resend = Schema.TaggedStruct("Resend", { at: Timestamp, requestedBy: RequiredString(100) })

export const NotificationCommand = Schema.Union([Schedule, RecordAttempt, RefuseUrl, Resend])
export type NotificationCommand = typeof NotificationCommand.Type
