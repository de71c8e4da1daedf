/**
 * Which addresses a URL that a merchant sends (a `notifyUrl`, a
 * `redirectUrl`) may name, against server-side request forgery: the service
 * must not be made to call into its own network. The gateway applies these
 * rules when a URL arrives, the notifier again before every attempt, on the
 * addresses the host name resolves to then.
 */
import { BlockList, isIP } from "node:net"
import { type EmbeddedIpv4, embeddedIpv4 } from "./embeddedIpv4.ts"

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
 * public endpoint either. An IPv6 address that carries an IPv4 one (mapped,
 * NAT64, 6to4, Teredo: `embeddedIpv4.ts`) is judged by the IPv4 address it
 * reaches.
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
  // NAT64 for an operator's own network (RFC 8215): a translator into its private side.
  ["64:ff9b:1::", 48, "ipv6", "private"],
  ["fc00::", 7, "ipv6", "private"],
  ["fe80::", 10, "ipv6", "link-local"],
  ["fec0::", 10, "ipv6", "private"],
  ["ff00::", 8, "ipv6", "multicast"],
]

const blockLists = ranges.map(([network, prefix, family, kind]) => {
  const list = new BlockList()
  list.addSubnet(network, prefix, family)
  return { list, family, kind }
})

/** What kind of address this is by its own ranges, or undefined for a public one. */
const rangeKind = (address: string, family: "ipv4" | "ipv6"): AddressKind | undefined =>
  blockLists.find((range) => range.family === family && range.list.check(address, family))?.kind

/** Why an address is not public: its kind, and the IPv4 address inside that made it so, when that is what did. */
export interface NonPublicAddress {
  readonly kind: AddressKind
  readonly via?: EmbeddedIpv4
}

/** What makes this address non-public, or undefined for a public one (an unreadable address is reserved). */
export const nonPublicAddress = (address: string): NonPublicAddress | undefined => {
  const family = isIP(address)
  if (family === 0) return { kind: "reserved" }
  if (family === 4) {
    const kind = rangeKind(address, "ipv4")
    return kind === undefined ? undefined : { kind }
  }
  const bare = address.split("%")[0] ?? ""
  const own = rangeKind(bare, "ipv6")
  if (own !== undefined) return { kind: own }
  for (const via of embeddedIpv4(bare)) {
    const kind = rangeKind(via.ipv4, "ipv4")
    if (kind !== undefined) return { kind, via }
  }
  return undefined
}

/** What kind of non-public address this is, or undefined for a public one. */
export const addressKind = (address: string): AddressKind | undefined => nonPublicAddress(address)?.kind

/**
 * What makes this address one the mode refuses. The sandbox calls the
 * merchant's own machine: loopback as such (127/8, `::1`) and in its
 * IPv4-mapped form, which a dual-stack socket connects to as the IPv4
 * address itself. A loopback address reached through a translator (NAT64,
 * 6to4, Teredo, IPv4-compatible) is the translator's own machine, never the
 * merchant's, and is refused in every mode.
 */
export const refusedAddress = (address: string, mode: AddressPolicyMode): NonPublicAddress | undefined => {
  const found = nonPublicAddress(address)
  const ownMachine = found?.kind === "loopback" && (found.via === undefined || found.via.form === "IPv4-mapped")
  return ownMachine && mode === "sandbox" ? undefined : found
}

export const refusedKind = (address: string, mode: AddressPolicyMode): AddressKind | undefined =>
  refusedAddress(address, mode)?.kind

/**
 * "a link-local address", and for an address that carries the IPv4 one
 * that made it so, which and how ("(NAT64 of 169.254.169.254)"). An
 * IPv4-mapped address is the IPv4 address itself to a dual-stack socket and
 * reads plainly.
 */
export const nonPublicDescription = ({ kind, via }: NonPublicAddress): string =>
  via === undefined || via.form === "IPv4-mapped"
    ? `a ${kind} address`
    : `a ${kind} address (${via.form} of ${via.ipv4})`

/** Why this address may not be called in this mode, or undefined when it may. */
export const addressRefusal = (address: string, mode: AddressPolicyMode): string | undefined => {
  const refused = refusedAddress(address, mode)
  return refused === undefined ? undefined : `${address} is ${nonPublicDescription(refused)}`
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
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(host, mode)
    return refusal === undefined ? undefined : `must name a public address: ${refusal}`
  }
  // `localhost.`, with the root's dot, is the same name.
  const name = host.replace(/\.$/, "")
  const isLocalName = name === "localhost" || name.endsWith(".localhost")
  return isLocalName && refusedAddress("127.0.0.1", mode) !== undefined
    ? `must name a public address: ${host} is a loopback address`
    : undefined
}
