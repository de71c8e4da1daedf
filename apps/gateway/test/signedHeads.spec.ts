/**
 * The process with the notifier role signs heads of the log with the
 * service's key (docs/architecture.md#a-tamper-evident-log), and one without
 * it signs none.
 */
import { chainGenesis, EventStore, logDigestAfter, signedHeadPayload } from "@mizan/eventsourcing"
import { parsePublicKey, verify } from "@mizan/protocol"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { placePaidOrder } from "./calls.ts"
import { startGateway, type TestGateway, testConfig } from "./harness.ts"

const lastHead = (gateway: TestGateway) => gateway.run(Effect.flatMap(EventStore, (store) => store.readLastSignedHead))

describe("signed heads of the log", () => {
  let gateway: TestGateway | undefined
  afterEach(() => gateway?.close())

  it("are signed by the notifier's process with the service's key, over the digest of every chain hash so far", async () => {
    gateway = await startGateway({ headSignIntervalMs: 50 })
    await placePaidOrder(gateway)
    const log = await gateway.allEvents()
    let head = await lastHead(gateway)
    for (let waitedMs = 0; (head?.count ?? 0) < log.length && waitedMs < 5_000; waitedMs += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      head = await lastHead(gateway)
    }
    const covered = (await gateway.allEvents()).slice(0, head!.count)
    expect(head!.count).toBeGreaterThanOrEqual(log.length)
    expect(head!.lastEventId).toBe(covered.at(-1)!.id)
    expect(head!.digest).toBe(covered.reduce((digest, e) => logDigestAfter(digest, e.chainHash!), chainGenesis))
    expect(verify(signedHeadPayload(head!), head!.signature, parsePublicKey(gateway.servicePublicKeyPem))).toBe(true)
  })

  it("are signed by no process without the notifier role", async () => {
    gateway = await startGateway({ config: testConfig({ roles: ["api", "expiry"] }), headSignIntervalMs: 50 })
    await placePaidOrder(gateway)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(await lastHead(gateway)).toBeUndefined()
  })
})
