/**
 * The IPv4 address an IPv6 address carries inside it, by the forms that
 * reach an IPv4 host: a request to `64:ff9b::a9fe:a9fe` goes, through a
 * NAT64 translator, to 169.254.169.254. An address policy that judged such
 * an address by its IPv6 ranges alone would let the cloud metadata service
 * be called by another spelling, so the address policy (`urlPolicy.ts`)
 * judges the IPv4 address inside instead.
 */
import { BlockList } from "node:net"

/** How an IPv6 address carries an IPv4 one. */
export type Ipv4Embedding = "IPv4-mapped" | "IPv4-translated" | "IPv4-compatible" | "NAT64" | "6to4" | "Teredo"

export interface EmbeddedIpv4 {
  readonly form: Ipv4Embedding
  readonly ipv4: string
}

/** The 16 bytes of an IPv6 address (one `isIP` says is 6), its zone (`%eth0`) dropped. */
export const ipv6Bytes = (address: string): Uint8Array => {
  const [bare = ""] = address.split("%")
  // A trailing dotted quad (`::ffff:10.0.0.1`) is the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(bare)
  const hex = dotted
    ? `${bare.slice(0, dotted.index)}${((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16)}:${((Number(dotted[3]) << 8) | Number(dotted[4])).toString(16)}`
    : bare
  const [head = "", tail] = hex.split("::")
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":"))
  const headGroups = groupsOf(head)
  const tailGroups = tail === undefined ? [] : groupsOf(tail)
  const groups = [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups]
  const bytes = new Uint8Array(16)
  groups.forEach((group, i) => {
    const value = Number.parseInt(group, 16)
    bytes[2 * i] = value >> 8
    bytes[2 * i + 1] = value & 0xff
  })
  return bytes
}

const ipv4At = (bytes: Uint8Array, at: number, mask = 0): string =>
  [0, 1, 2, 3].map((i) => ((bytes[at + i] ?? 0) ^ mask).toString()).join(".")

/**
 * Where each form keeps its IPv4 address (RFC 4291 for mapped and
 * compatible, RFC 2765 translated, RFC 6052 NAT64's well-known prefix,
 * RFC 3056 6to4, RFC 4380 Teredo, whose client address is stored with
 * every bit inverted and whose server address is the second). The local-use
 * NAT64 prefix `64:ff9b:1::/48` (RFC 8215) places its IPv4 address where
 * its operator's prefix length says, so the policy refuses that whole
 * range instead of reading an address out of it.
 */
const forms: ReadonlyArray<{
  readonly form: Ipv4Embedding
  readonly network: string
  readonly prefix: number
  readonly read: (bytes: Uint8Array) => ReadonlyArray<string>
}> = [
  { form: "IPv4-mapped", network: "::ffff:0:0", prefix: 96, read: (b) => [ipv4At(b, 12)] },
  { form: "IPv4-translated", network: "::ffff:0:0:0", prefix: 96, read: (b) => [ipv4At(b, 12)] },
  { form: "IPv4-compatible", network: "::", prefix: 96, read: (b) => [ipv4At(b, 12)] },
  { form: "NAT64", network: "64:ff9b::", prefix: 96, read: (b) => [ipv4At(b, 12)] },
  { form: "6to4", network: "2002::", prefix: 16, read: (b) => [ipv4At(b, 2)] },
  { form: "Teredo", network: "2001::", prefix: 32, read: (b) => [ipv4At(b, 12, 0xff), ipv4At(b, 4)] },
]

const formLists = forms.map((entry) => {
  const list = new BlockList()
  list.addSubnet(entry.network, entry.prefix, "ipv6")
  return { ...entry, list }
})

/** Every IPv4 address this IPv6 address reaches through its form (Teredo's client and server), or none. */
export const embeddedIpv4 = (ipv6: string): ReadonlyArray<EmbeddedIpv4> => {
  const bare = ipv6.split("%")[0] ?? ""
  const found = formLists.find(({ list }) => list.check(bare, "ipv6"))
  if (found === undefined) return []
  return found.read(ipv6Bytes(bare)).map((ipv4) => ({ form: found.form, ipv4 }))
}
