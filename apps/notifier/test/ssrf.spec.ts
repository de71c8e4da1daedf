import { it } from "@effect/vitest"
import { addressRefusal } from "@mizan/protocol"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import { checkNotifyUrl, notifyIdFor, type ResolveHost, readNotification } from "../src/index.ts"
import {
  ack,
  announce,
  attemptsOf,
  eventually,
  notificationEvents,
  onTestDay,
  realSleep,
  sandboxOptions,
  startMerchant,
  startNotifier,
} from "./harness.ts"

/** A resolver with fixed answers, so that no test asks the real DNS. */
const fakeDns: ResolveHost = async (host) => {
  const answers: Record<string, ReadonlyArray<string>> = {
    localhost: ["127.0.0.1", "::1"],
    "intranet.merchant.test": ["10.20.30.40"],
    "mixed.merchant.test": ["93.184.216.34", "192.168.1.5"],
    "metadata.merchant.test": ["169.254.169.254"],
    "nat64.merchant.test": ["64:ff9b::a9fe:a9fe"],
    "public.merchant.test": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  }
  const addresses = answers[host]
  if (addresses === undefined) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" })
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
}

describe("notifyUrl addresses", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.1", "private"],
    ["fd12:3456::1", "private"],
    ["::ffff:10.1.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["fe80::1", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["100.64.0.1", "shared (carrier-grade NAT)"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved"],
  ])("refuses %s in production as a %s address", (address, kind) => {
    expect(addressRefusal(address, "production")).toBe(`${address} is a ${kind} address`)
  })

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:2800:220:1:248:1893:25c8:1946"])(
    "allows the public address %s",
    (address) => {
      expect(addressRefusal(address, "production")).toBeUndefined()
      expect(addressRefusal(address, "sandbox")).toBeUndefined()
    },
  )

  it("allows loopback in sandbox mode, and nothing else that is not public", () => {
    expect(addressRefusal("127.0.0.1", "sandbox")).toBeUndefined()
    expect(addressRefusal("::1", "sandbox")).toBeUndefined()
    expect(addressRefusal("10.0.0.1", "sandbox")).toBe("10.0.0.1 is a private address")
    expect(addressRefusal("169.254.169.254", "sandbox")).toBe("169.254.169.254 is a link-local address")
  })
})

describe("notifyUrl check", () => {
  const check = (url: string, mode: "production" | "sandbox" = "production") =>
    checkNotifyUrl(url, mode, fakeDns, 1_000)

  it.effect("allows a public host and keeps every address it resolved to, to connect to only those", () =>
    Effect.gen(function* () {
      expect(yield* check("https://public.merchant.test/notify")).toMatchObject({
        _tag: "Allowed",
        addresses: [
          { address: "93.184.216.34", family: 4 },
          { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 },
        ],
      })
    }),
  )

  it.effect("refuses a host when any one of its addresses is not public", () =>
    Effect.gen(function* () {
      expect(yield* check("https://mixed.merchant.test/notify")).toEqual({
        _tag: "Refused",
        detail: "mixed.merchant.test resolves to 192.168.1.5, a private address",
      })
    }),
  )

  it.effect("refuses other schemes, more than 200 characters, and what is not a URL, without resolving", () =>
    Effect.gen(function* () {
      expect(yield* check("ftp://public.merchant.test/n")).toEqual({
        _tag: "Refused",
        detail: "notifyUrl must use http or https",
      })
      expect(yield* check(`https://public.merchant.test/${"a".repeat(200)}`)).toEqual({
        _tag: "Refused",
        detail: "notifyUrl is longer than 200 characters",
      })
      expect(yield* check("merchant notify endpoint")).toEqual({ _tag: "Refused", detail: "notifyUrl is not a URL" })
    }),
  )

  it.effect("treats a host that does not resolve now as a failed attempt, not a refusal", () =>
    Effect.gen(function* () {
      expect(yield* check("https://gone.merchant.test/n")).toEqual({ _tag: "Unresolved", code: "ENOTFOUND" })
    }),
  )

  // The deadline is a setTimeout around the resolver's promise, in real time: the test waits the 50 ms.
  it.effect("stops waiting for a resolver that does not answer within the deadline", () =>
    Effect.gen(function* () {
      const silentDns: ResolveHost = () => new Promise(() => {})
      const verdict = yield* checkNotifyUrl("https://slow.merchant.test/n", "production", silentDns, 50)
      expect(verdict).toEqual({ _tag: "Unresolved", code: "ETIMEOUT" })
    }),
  )
})

describe("host names that resolve to a non-public address in another spelling", () => {
  /** Each name resolves to one spelling of a non-public address, as a hostile merchant's DNS may answer. */
  const spellings: ReadonlyArray<readonly [name: string, address: string, description: string]> = [
    ["mapped.merchant.test", "::ffff:169.254.169.254", "a link-local address"],
    ["translated.merchant.test", "::ffff:0:a9fe:a9fe", "a link-local address (IPv4-translated of 169.254.169.254)"],
    ["compatible.merchant.test", "::a9fe:a9fe", "a link-local address (IPv4-compatible of 169.254.169.254)"],
    ["nat64.merchant.test", "64:ff9b::a9fe:a9fe", "a link-local address (NAT64 of 169.254.169.254)"],
    ["nat64-local.merchant.test", "64:ff9b:1::a00:1", "a private address"],
    ["sixtofour.merchant.test", "2002:a00:1::1", "a private address (6to4 of 10.0.0.1)"],
    [
      "teredo.merchant.test",
      "2001:0:4136:e378:8000:63bf:5601:5601",
      "a link-local address (Teredo of 169.254.169.254)",
    ],
    ["nat64-loopback.merchant.test", "64:ff9b::7f00:1", "a loopback address (NAT64 of 127.0.0.1)"],
  ]
  const spellingDns: ResolveHost = async (host) => {
    const found = spellings.find(([name]) => name === host)
    if (found === undefined) return fakeDns(host)
    return [
      { address: found[1], family: 6 },
      { address: "93.184.216.34", family: 4 },
    ]
  }

  it.effect.each(spellings)(
    "refuses %s, which resolves to %s, at delivery in both modes",
    ([name, address, description]) =>
      Effect.gen(function* () {
        for (const mode of ["production", "sandbox"] as const)
          expect(yield* checkNotifyUrl(`https://${name}/notify`, mode, spellingDns, 1_000)).toEqual({
            _tag: "Refused",
            detail: `${name} resolves to ${address}, ${description}`,
          })
      }),
  )

  // Real time: the delivery is a real HTTP exchange with an endpoint on loopback.
  it.effect("connects to the address it checked: a name only the checking resolver knows is delivered to", () =>
    onTestDay(
      Effect.gen(function* () {
        const endpoint = yield* startMerchant(() => ack)
        const asked: Array<string> = []
        // The system resolver knows no `.test` name (RFC 6761): only a connection pinned to the checked address arrives.
        const pinnedDns: ResolveHost = async (host) => {
          asked.push(host)
          return [{ address: "127.0.0.1", family: 4 }]
        }
        yield* startNotifier(sandboxOptions({ resolveHost: pinnedDns }))
        const notifyId = notifyIdFor(
          (yield* announce("acquiring-M1-PIN", `http://endpoint.merchant.test:${endpoint.port}/n`)).id,
        )
        yield* eventually(
          Effect.map(attemptsOf(notifyId), (attempts) => attempts[0]?.outcome._tag === "Delivered"),
          "the notification is delivered",
        )
        expect(endpoint.received.map((r) => r.notifyId)).toEqual([notifyId])
        expect(asked).toEqual(["endpoint.merchant.test"])
      }),
    ),
  )
})

describe("unresolved host names", () => {
  it.effect("records a host that does not resolve as a failed attempt, and keeps the notification pending", () =>
    onTestDay(
      Effect.gen(function* () {
        yield* startNotifier(sandboxOptions({ mode: "production", resolveHost: fakeDns }))
        const notifyId = notifyIdFor((yield* announce("acquiring-M1-U", "https://gone.merchant.test/n")).id)
        yield* eventually(
          Effect.map(notificationEvents(notifyId), (events) => events.length === 2),
          "the attempt is recorded",
        )
        const events = yield* notificationEvents(notifyId)
        expect(events[1]).toMatchObject({
          _tag: "NotificationAttempted",
          outcome: { _tag: "ConnectionFailed", code: "ENOTFOUND" },
        })
        expect(yield* readNotification(notifyId)).toMatchObject({ status: "PENDING" })
      }),
    ),
  )
})

describe("server-side request forgery in production mode", () => {
  it.effect("gives up every notification to a non-public address, saying why, and never calls it", () =>
    onTestDay(
      Effect.gen(function* () {
        const endpoint = yield* startMerchant(() => ack)
        const port = endpoint.port
        const refusedUrls = [
          `http://127.0.0.1:${port}/n`,
          `http://localhost:${port}/n`,
          `http://[::1]:${port}/n`,
          `http://[::ffff:127.0.0.1]:${port}/n`,
          `http://2130706433:${port}/n`,
          `http://0x7f000001:${port}/n`,
          `http://0177.0.0.1:${port}/n`,
          "http://2852039166/latest/meta-data/",
          "http://0251.0376.0251.0376/",
          "http://0xa9fea9fe/",
          "http://[64:ff9b::a9fe:a9fe]/",
          "http://[2002:a9fe:a9fe::]/",
          "http://nat64.merchant.test/",
          `http://0.0.0.0:${port}/n`,
          "http://10.1.2.3/n",
          "http://169.254.169.254/latest/meta-data/",
          "http://metadata.merchant.test/",
          "https://intranet.merchant.test/n",
          "https://mixed.merchant.test/n",
          "ftp://public.merchant.test/n",
          `https://public.merchant.test/${"a".repeat(200)}`,
        ]
        yield* startNotifier(sandboxOptions({ mode: "production", resolveHost: fakeDns }))
        const ids: Array<string> = []
        for (const [i, url] of refusedUrls.entries())
          ids.push(notifyIdFor((yield* announce(`acquiring-M1-S${i}`, url)).id))
        for (const [i, notifyId] of ids.entries()) {
          yield* eventually(
            Effect.map(notificationEvents(notifyId), (events) => events.at(-1)?._tag === "NotificationGivenUp"),
            `${refusedUrls[i]} is refused`,
          )
          const events = yield* notificationEvents(notifyId)
          expect(events.map((e) => e._tag)).toEqual(["NotificationScheduled", "NotificationGivenUp"])
          expect(events[1]).toMatchObject({ reason: { _tag: "UrlRefused", detail: expect.any(String) } })
        }
        yield* realSleep(30)
        expect(endpoint.received).toEqual([])
      }),
    ),
  )
})
