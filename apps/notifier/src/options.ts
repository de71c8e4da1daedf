import { acceptRenamedKeys } from "@mizan/kernel"
import { type NotificationSource, notificationSource } from "@mizan/order-views"
import type { MerchantClocks } from "@mizan/test-clock"
import type { NotifierProgress } from "./progress.ts"
import type { NotifierMode, ResolveHost } from "./urlPolicy.ts"

export interface NotifierOptions {
  /** Which recorded events announce a status change: the service's own (`@mizan/order-views`) unless a test gives another. */
  readonly source?: NotificationSource
  /** The `sign` header for a body: SHA256withRSA over the raw bytes with the service's private key, Base64. */
  readonly sign: (body: Uint8Array) => string
  /** Production refuses every non-public notifyUrl address; a sandbox may call loopback. */
  readonly mode: NotifierMode
  /** How long one attempt may take, in real time, before it counts as failed. */
  readonly deliveryTimeoutMs?: number
  /** Attempts in flight at once, over every endpoint. */
  readonly deliveriesInFlightMax?: number
  /** Attempts in flight at once to one endpoint (URL origin): below the total, so one dead endpoint never takes every slot. */
  readonly deliveriesInFlightPerEndpointMax?: number
  /** The longest merchant answer read; an acknowledgement is a few bytes. */
  readonly answerMaxBytes?: number
  /** @deprecated `answerMaxBytes`'s name before its unit went last: still read, with a warning. */
  readonly answerBytesMax?: number
  /** Events per read of the global log. */
  readonly pageSizeEvents?: number
  /** The name under which the notifier keeps its checkpoints in the store. */
  readonly checkpointName?: string
  /** Resolves notifyUrl host names; the system resolver by default. */
  readonly resolveHost?: ResolveHost
  /**
   * Each merchant's time (sandbox test clocks): a merchant's retries fall due,
   * and its attempts are recorded and dated (`notify_timestamp`), on its own
   * time. The gateway shares its own; by default the notifier keeps its own,
   * learning advances from the log.
   */
  readonly clocks?: MerchantClocks
  /** Kept up to date with how far the notifier has got (the service's `/ready` reads it). */
  readonly progress?: NotifierProgress
}

export const notifierDefaults = {
  // The spec says a reply that times out is a failure, not how long to wait;
  // ten seconds is what merchant SDK samples allow a handler.
  deliveryTimeoutMs: 10_000,
  deliveriesInFlightMax: 64,
  deliveriesInFlightPerEndpointMax: 8,
  answerMaxBytes: 1_024,
  pageSizeEvents: 500,
  checkpointName: "notifier",
} as const

/** Options renamed so that a bound says its unit last, each old name with its new one. */
export const renamedNotifierOptions = { answerBytesMax: "answerMaxBytes" } as const

export type NotifierSettings = Required<
  Omit<NotifierOptions, "resolveHost" | "clocks" | "progress" | "answerBytesMax">
> &
  Pick<NotifierOptions, "resolveHost" | "clocks" | "progress">

/** The options with their defaults; a bound that is not a positive whole number is a programming error. */
export const notifierSettings = (options: NotifierOptions): NotifierSettings => {
  const renamed = acceptRenamedKeys(options, renamedNotifierOptions)
  for (const warning of renamed.warnings) process.emitWarning(`notifier options: ${warning}`, "DeprecationWarning")
  const { answerBytesMax: _renamed, ...current } = renamed.value
  const settings = { ...notifierDefaults, source: notificationSource, ...current }
  const bounds = {
    deliveryTimeoutMs: settings.deliveryTimeoutMs,
    deliveriesInFlightMax: settings.deliveriesInFlightMax,
    deliveriesInFlightPerEndpointMax: settings.deliveriesInFlightPerEndpointMax,
    answerMaxBytes: settings.answerMaxBytes,
    pageSizeEvents: settings.pageSizeEvents,
  }
  for (const [name, value] of Object.entries(bounds))
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`${name} must be a positive whole number: ${value}`)
  return settings
}
