import { createHash } from "node:crypto"

/**
 * The notify_id of the notification an event announces: 32 hex characters
 * of a SHA-256 over the event's id. Deterministic, so reading the same event
 * again (after a crash, from an older checkpoint) finds the same notification
 * instead of making a second one; 128 bits, so two events never share one.
 */
export const notifyIdFor = (sourceEventId: string): string =>
  createHash("sha256").update(`mizan.notification:${sourceEventId}`).digest("hex").slice(0, 32)
