/**
 * What stops `npm start` before it serves, as the one line an operator
 * reads: a configuration that does not hold, a store that does not open, an
 * address it cannot listen on. Anything else is the runtime's to report,
 * with its stack.
 */
import { StoreError } from "@mizan/eventsourcing"
import { maskSetting } from "@mizan/stores"
import { TelemetrySettingError } from "@mizan/telemetry"
import { HttpServerError } from "effect/http"
import { ConfigError } from "../config/config.ts"
import type { ListenAddress } from "./listen.ts"

/** Why the HTTP server could not listen, in a sentence with what to do. */
const whyNotListening = (cause: unknown): string => {
  const code = (cause as { readonly code?: unknown } | undefined)?.code
  if (code === "EADDRINUSE") return "the port is in use (is a gateway already running?); set PORT to another one"
  if (code === "EACCES") return "not allowed to listen there (ports below 1024 need privileges); set PORT"
  if (code === "EADDRNOTAVAIL") return "this machine has no such address; set HOST"
  return cause instanceof Error ? cause.message : String(cause)
}

/**
 * The line that says why the service cannot start (`listen`, where it tried
 * to listen, once it has got that far; `store`, the store setting it
 * opened), or undefined for a failure that is not one of those.
 */
export const whyItCannotStart = (error: unknown, listen?: ListenAddress, store?: string): string | undefined => {
  if (error instanceof ConfigError) return `mizan: ${error.message}`
  if (error instanceof TelemetrySettingError) return `mizan: ${error.message}`
  if (error instanceof StoreError) {
    // A server's refusal ("connect ECONNREFUSED 127.0.0.1:5432") does not say which setting led there.
    const setting = store === undefined ? "" : ` (store ${maskSetting(store)})`
    return `mizan: the event store cannot be used${setting}: ${error.message}`
  }
  if (error instanceof HttpServerError.ServeError) {
    const where = listen === undefined ? "" : ` on ${listen.host}:${listen.port}`
    return `mizan: cannot listen${where}: ${whyNotListening(error.cause)}`
  }
  return undefined
}
