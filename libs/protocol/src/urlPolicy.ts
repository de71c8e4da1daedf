/**
 * Which addresses a URL that a merchant sends (a `notifyUrl`, a
 * `redirectUrl`) may name, against server-side request forgery: the service
 * must not be made to call into its own network. The gateway applies these
 * rules when a URL arrives, the notifier again before every attempt, on the
 * addresses the host name resolves to then.
 */
import { BlockList, isIP } from "node:net"

/** Production refuses every non-public address; a sandbox may call the merchant's own machine (loopback). */
export type AddressPolicyMode = "production" | "sandbox"

export type AddressKind =
  | "loopback"
  | "private"
  | "link-local"
  | "unspecified"
  | "shared (carrier-grade NAT)"
  | "multicast"
  | "reserved"

/**
 * Ranges that are not the public Internet (IANA special-purpose registries,
 * RFC 6890). Loopback, private, link-local and unspecified are the ones the
 * issue names; shared, multicast and reserved ranges cannot be a merchant's
 * public endpoint either. IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) are
 * matched by the IPv4 rules (node:net's BlockList does this).
 */
const ranges: ReadonlyArray<readonly [network: string, prefix: number, family: "ipv4" | "ipv6", kind: AddressKind]> = [
  ["0.0.0.0", 8, "ipv4", "unspecified"],
  ["10.0.0.0", 8, "ipv4", "private"],
  ["100.64.0.0", 10, "ipv4", "shared (carrier-grade NAT)"],
  ["127.0.0.0", 8, "ipv4", "loopback"],
  ["169.254.0.0", 16, "ipv4", "link-local"],
  ["172.16.0.0", 12, "ipv4", "private"],
  ["192.0.0.0", 24, "ipv4", "reserved"],
  ["192.168.0.0", 16, "ipv4", "private"],
  ["198.18.0.0", 15, "ipv4", "reserved"],
  ["224.0.0.0", 4, "ipv4", "multicast"],
  ["240.0.0.0", 4, "ipv4", "reserved"],
  ["::", 128, "ipv6", "unspecified"],
  ["::1", 128, "ipv6", "loopback"],
  ["fc00::", 7, "ipv6", "private"],
  ["fe80::", 10, "ipv6", "link-local"],
  ["fec0::", 10, "ipv6", "private"],
  ["ff00::", 8, "ipv6", "multicast"],
]

const blockLists = ranges.map(([network, prefix, family, kind]) => {
  const list = new BlockList()
  list.addSubnet(network, prefix, family)
  return { list, kind }
})

/** What kind of non-public address this is, or undefined for a public one. */
export const addressKind = (address: string): AddressKind | undefined => {
  const family = isIP(address)
  if (family === 0) return "reserved"
  const type = family === 6 ? "ipv6" : "ipv4"
  return blockLists.find(({ list }) => list.check(address, type))?.kind
}

export const refusedKind = (address: string, mode: AddressPolicyMode): AddressKind | undefined => {
  const kind = addressKind(address)
  return kind === "loopback" && mode === "sandbox" ? undefined : kind
}

/** Why this address may not be called in this mode, or undefined when it may. */
export const addressRefusal = (address: string, mode: AddressPolicyMode): string | undefined => {
  const kind = refusedKind(address, mode)
  return kind === undefined ? undefined : `${address} is a ${kind} address`
}

/** `[::1]` as a URL writes it is `::1` to a resolver. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, "$1")

/**
 * What the gateway can tell of a URL when it arrives, without asking a
 * resolver (a name may resolve differently by the time it is called, so the
 * notifier checks again then): an absolute http(s) URL with a host, and in
 * production no address literal or `localhost` name outside the public
 * Internet. Undefined when it may be taken; otherwise why not.
 */
export const merchantUrlRefusal = (text: string, mode: AddressPolicyMode): string | undefined => {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return "must be an absolute http or https URL"
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must be an absolute http or https URL"
  if (url.hostname === "") return "must name a host"
  const host = bareHost(url)
  const isLocalName = host === "localhost" || host.endsWith(".localhost")
  const refusal =
    isIP(host) !== 0 ? addressRefusal(host, mode) : isLocalName ? addressRefusal("127.0.0.1", mode) : undefined
  return refusal === undefined ? undefined : `must name a public address: ${refusal.replace("127.0.0.1", host)}`
}
