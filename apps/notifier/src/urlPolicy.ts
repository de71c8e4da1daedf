/**
 * Which notifyUrls the notifier may call. A notifyUrl comes from a merchant's
 * request, so it is checked before every attempt, against server-side request
 * forgery: the service must not be made to POST into its own network. Host
 * names are resolved and every address checked, and the connection is then
 * made only to the addresses checked (see `pinnedLookup`), so a name that
 * resolves differently a moment later cannot slip past.
 */
import { lookup } from "node:dns/promises"
import { isIP, type LookupFunction } from "node:net"
import { type AddressPolicyMode, bareHost, nonPublicDescription, refusedAddress } from "@mizan/protocol"
import { Effect, Result } from "effect"

/** The spec's notifyUrl is a String(200). */
export const notifyUrlLengthMax = 200

/** In production every non-public address is refused; a sandbox may call the merchant's own machine (loopback). */
export type NotifierMode = AddressPolicyMode

export interface ResolvedAddress {
  readonly address: string
  readonly family: 4 | 6
}

/** Resolves a host name to all its addresses (the default asks the system resolver, like any client would). */
export type ResolveHost = (host: string) => Promise<ReadonlyArray<ResolvedAddress>>

export const resolveWithSystem: ResolveHost = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }))

/** A notifyUrl that may be called, with the addresses checked. */
export interface AllowedUrl {
  readonly _tag: "Allowed"
  readonly url: URL
  readonly addresses: ReadonlyArray<ResolvedAddress>
}

/** A notifyUrl that must never be called: the notification is given up. */
export interface RefusedUrl {
  readonly _tag: "Refused"
  readonly detail: string
}

/** The host name did not resolve now: a failed attempt, retried on the schedule. */
export interface UnresolvedUrl {
  readonly _tag: "Unresolved"
  readonly code: string
}

export type UrlVerdict = AllowedUrl | RefusedUrl | UnresolvedUrl

const refused = (detail: string): RefusedUrl => ({ _tag: "Refused", detail: detail.slice(0, notifyUrlLengthMax) })

/** The rules that need no network: scheme, length, a host. */
export const parseNotifyUrl = (text: string): URL | RefusedUrl => {
  if (text.length > notifyUrlLengthMax) return refused(`notifyUrl is longer than ${notifyUrlLengthMax} characters`)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return refused("notifyUrl is not a URL")
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return refused("notifyUrl must use http or https")
  if (url.hostname === "") return refused("notifyUrl has no host")
  return url
}

const errorCode = (error: unknown): string =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : "ERESOLVE"

/** A resolution that takes longer than `deadlineMs` of real time fails with ETIMEOUT: a resolver can hang for long. */
const resolveWithin = (resolveHost: ResolveHost, host: string, deadlineMs: number) =>
  new Promise<ReadonlyArray<ResolvedAddress>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(Object.assign(new Error(`resolving ${host} took over ${deadlineMs} ms`), { code: "ETIMEOUT" })),
      deadlineMs,
    )
    resolveHost(host).then(
      (addresses) => {
        clearTimeout(timer)
        resolve(addresses)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })

/**
 * Checks a notifyUrl against the rules of the mode, resolving its host name
 * within `resolveDeadlineMs`. Never fails: the verdict says it all.
 */
export const checkNotifyUrl = Effect.fnUntraced(function* (
  text: string,
  mode: NotifierMode,
  resolveHost: ResolveHost,
  resolveDeadlineMs: number,
) {
  const url = parseNotifyUrl(text)
  if (!(url instanceof URL)) return url
  const host = bareHost(url)
  const family = isIP(host)
  const resolution = yield* Effect.result(
    family !== 0
      ? Effect.succeed<ReadonlyArray<ResolvedAddress>>([{ address: host, family: family === 6 ? 6 : 4 }])
      : Effect.tryPromise({ try: () => resolveWithin(resolveHost, host, resolveDeadlineMs), catch: errorCode }),
  )
  if (Result.isFailure(resolution)) return { _tag: "Unresolved", code: resolution.failure } satisfies UnresolvedUrl
  const resolved = resolution.success
  if (resolved.length === 0) return { _tag: "Unresolved", code: "ENOTFOUND" } satisfies UnresolvedUrl
  for (const { address } of resolved) {
    const found = refusedAddress(address, mode)
    if (found === undefined) continue
    const description = nonPublicDescription(found)
    return refused(family === 0 ? `${host} resolves to ${address}, ${description}` : `${address} is ${description}`)
  }
  return { _tag: "Allowed", url, addresses: resolved } satisfies AllowedUrl
})

/**
 * A `lookup` for node:http that answers only the addresses already checked,
 * so the connection goes where the check said it may.
 */
export const pinnedLookup =
  (addresses: ReadonlyArray<ResolvedAddress>): LookupFunction =>
  (_hostname, options, callback) => {
    const usable =
      options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses
    const first = usable[0]
    if (first === undefined) {
      callback(Object.assign(new Error("no checked address of that family"), { code: "ENOTFOUND" }), "", 4)
      return
    }
    if (options.all) (callback as unknown as (e: null, all: ReadonlyArray<ResolvedAddress>) => void)(null, usable)
    else callback(null, first.address, first.family)
  }
