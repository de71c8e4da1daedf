/**
 * How far the notifier has got, for the service's readiness check: whether
 * it runs here at all, and the last position of the log it has taken in.
 */
import { type GlobalPosition, logStart } from "@mizan/eventsourcing"

export type NotifierStatus =
  /** Not started, or waiting while another process holds the notifier's lock: nothing is this process's to do. */
  | "standby"
  /** Reading the log from its checkpoints after a start. */
  | "catchingUp"
  /** Taking in each event as it is appended. */
  | "following"
  /** It stopped on an error; the log says why. */
  | "stopped"

export class NotifierProgress {
  status: NotifierStatus = "standby"
  /** Every event up to here has been taken in. */
  processedUpTo: GlobalPosition = logStart
}
