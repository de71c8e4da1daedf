/**
 * One address policy for every URL a merchant gives, by every spelling of a
 * non-public address: the IPv6 forms that carry an IPv4 address (a request
 * to the NAT64 address `64:ff9b::a9fe:a9fe` reaches 169.254.169.254, the
 * cloud metadata service) and the IPv4 spellings URL parsers read as a
 * dotted quad (`http://2852039166/`). The gateway refuses them when a URL
 * arrives and the notifier before each attempt, both through this policy.
 */
import { test } from "@fast-check/vitest"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { embeddedIpv4, ipv6Bytes } from "../src/embeddedIpv4.ts"
import { addressRefusal, merchantUrlRefusal } from "../src/index.ts"

describe("IPv6 forms that carry a non-public IPv4 address, refused in production", () => {
  it.each([
    ["IPv4-mapped", "::ffff:a9fe:a9fe", "::ffff:a9fe:a9fe is a link-local address"],
    ["IPv4-mapped, dotted", "::ffff:169.254.169.254", "::ffff:169.254.169.254 is a link-local address"],
    ["IPv4-mapped, written out", "0:0:0:0:0:ffff:a00:1", "0:0:0:0:0:ffff:a00:1 is a private address"],
    [
      "IPv4-translated",
      "::ffff:0:a9fe:a9fe",
      "::ffff:0:a9fe:a9fe is a link-local address (IPv4-translated of 169.254.169.254)",
    ],
    ["IPv4-compatible", "::a9fe:a9fe", "::a9fe:a9fe is a link-local address (IPv4-compatible of 169.254.169.254)"],
    ["IPv4-compatible, dotted", "::10.0.0.1", "::10.0.0.1 is a private address (IPv4-compatible of 10.0.0.1)"],
    ["NAT64", "64:ff9b::a9fe:a9fe", "64:ff9b::a9fe:a9fe is a link-local address (NAT64 of 169.254.169.254)"],
    [
      "NAT64, dotted and written out",
      "0064:ff9b:0000:0000:0000:0000:169.254.169.254",
      "0064:ff9b:0000:0000:0000:0000:169.254.169.254 is a link-local address (NAT64 of 169.254.169.254)",
    ],
    [
      "NAT64 of a private address",
      "64:ff9b::c0a8:101",
      "64:ff9b::c0a8:101 is a private address (NAT64 of 192.168.1.1)",
    ],
    ["NAT64 local-use /48", "64:ff9b:1::a9fe:a9fe", "64:ff9b:1::a9fe:a9fe is a private address"],
    ["NAT64 local-use /48, any address", "64:ff9b:1:ffff::808:808", "64:ff9b:1:ffff::808:808 is a private address"],
    ["6to4", "2002:a9fe:a9fe::1", "2002:a9fe:a9fe::1 is a link-local address (6to4 of 169.254.169.254)"],
    ["6to4 of a private address", "2002:a00:1::", "2002:a00:1:: is a private address (6to4 of 10.0.0.1)"],
    // RFC 4380: the client's address is stored with every bit inverted (169.254.169.254 as 5601:5601).
    [
      "Teredo client",
      "2001:0:4136:e378:8000:63bf:5601:5601",
      "2001:0:4136:e378:8000:63bf:5601:5601 is a link-local address (Teredo of 169.254.169.254)",
    ],
    ["Teredo server", "2001:0:a00:1::f7f7:f7f7", "2001:0:a00:1::f7f7:f7f7 is a private address (Teredo of 10.0.0.1)"],
    ["link-local with a zone", "fe80::1%eth0", "fe80::1%eth0 is a link-local address"],
  ])("refuses %s (%s)", (_form, address, refusal) => {
    expect(addressRefusal(address, "production")).toBe(refusal)
  })

  it.each([
    ["NAT64 of 8.8.8.8", "64:ff9b::808:808"],
    ["6to4 of 8.8.8.8", "2002:808:808::1"],
    // Client 8.8.8.8 (inverted f7f7:f7f7), server 65.54.227.120.
    ["Teredo of public client and server", "2001:0:4136:e378:8000:63bf:f7f7:f7f7"],
    ["IPv4-mapped 93.184.216.34", "::ffff:93.184.216.34"],
    ["a public IPv6 address", "2606:2800:220:1:248:1893:25c8:1946"],
  ])("allows %s (%s), which reaches a public host", (_form, address) => {
    expect(addressRefusal(address, "production")).toBeUndefined()
  })
})

describe("loopback in the sandbox", () => {
  it.each(["127.0.0.1", "::1", "::ffff:127.0.0.1", "::ffff:7f00:1"])(
    "allows the merchant's own machine %s, which a dual-stack socket reaches as loopback",
    (address) => {
      expect(addressRefusal(address, "sandbox")).toBeUndefined()
    },
  )

  it.each([
    ["64:ff9b::7f00:1", "NAT64"],
    ["2002:7f00:1::", "6to4"],
    ["::127.0.0.1", "IPv4-compatible"],
  ])("refuses %s: loopback through %s is the translator's machine, not the merchant's", (address, form) => {
    expect(addressRefusal(address, "sandbox")).toBe(`${address} is a loopback address (${form} of 127.0.0.1)`)
  })
})

describe("URLs as a merchant writes them", () => {
  it.each([
    ["decimal", "http://2852039166/", "169.254.169.254 is a link-local address"],
    ["octal", "http://0251.0376.0251.0376/", "169.254.169.254 is a link-local address"],
    ["hexadecimal", "http://0xa9fea9fe/", "169.254.169.254 is a link-local address"],
    ["mixed radix, fewer parts", "http://0xa9.0376.43518/latest", "169.254.169.254 is a link-local address"],
    ["a trailing dot", "http://169.254.169.254./", "169.254.169.254 is a link-local address"],
    ["decimal loopback", "http://2130706433:8080/", "127.0.0.1 is a loopback address"],
    [
      "NAT64 dotted",
      "http://[64:ff9b::169.254.169.254]/",
      "64:ff9b::a9fe:a9fe is a link-local address (NAT64 of 169.254.169.254)",
    ],
    ["IPv4-mapped", "https://[::ffff:a9fe:a9fe]/n", "::ffff:a9fe:a9fe is a link-local address"],
    ["6to4", "http://[2002:a9fe:a9fe::]/", "2002:a9fe:a9fe:: is a link-local address (6to4 of 169.254.169.254)"],
    ["localhost with the root's dot", "http://localhost./n", "localhost. is a loopback address"],
  ])("refuses the %s spelling %s in production", (_spelling, url, refusal) => {
    expect(merchantUrlRefusal(url, "production")).toBe(`must name a public address: ${refusal}`)
  })
})

describe("reading an IPv6 address", () => {
  const groupsOf = (bytes: Uint8Array) =>
    Array.from({ length: 8 }, (_, i) => (((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0)).toString(16))

  test.prop([fc.uint8Array({ minLength: 16, maxLength: 16 })])(
    "reads back the bytes of any address, written out or as a URL compresses it",
    (bytes) => {
      const written = groupsOf(bytes).join(":")
      const compressed = new URL(`http://[${written}]/`).hostname.slice(1, -1)
      expect(ipv6Bytes(written)).toEqual(bytes)
      expect(ipv6Bytes(compressed)).toEqual(bytes)
    },
  )

  it("finds Teredo's client (bits inverted) and server addresses, in that order", () => {
    expect(embeddedIpv4("2001:0:4136:e378:8000:63bf:3fff:fdd2")).toEqual([
      { form: "Teredo", ipv4: "192.0.2.45" },
      { form: "Teredo", ipv4: "65.54.227.120" },
    ])
  })
})
