/**
 * What the transfer tests share: numbering, sandbox calls that must succeed
 * or must be refused, a production-mode gateway (no outside world
 * connected), and reading the store for what it must never hold.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { EventStore, newMasterKey } from "@mizan/eventsourcing"
import type { MerchantClient } from "@mizan/merchant-client"
import { generateKeyPair } from "@mizan/protocol"
import { writeMasterKeyFile } from "@mizan/stores"
import { Effect } from "effect"
import { expect } from "vitest"
import { refused, sandbox } from "./calls.ts"
import { newNumber, startGateway, type TestGateway, testConfig } from "./harness.ts"

let serial = 0

/** An orderNo like the service's (time, kind digit, 11 digits), for orders a test places through the domain itself. */
export const handMadeOrderNo = (kindDigit: string) => `${Date.now()}${kindDigit}${String(++serial).padStart(11, "0")}`

/** A sandbox helper's answer body; fails the test with head.code and msg when it is refused. */
export const sandboxOk = async <Body>(client: MerchantClient, name: string, bizContent: unknown) => {
  const answer = await sandbox(client, name, bizContent)
  expect(answer.head, `sandbox ${name}: ${answer.head.msg}`).toMatchObject({ code: "0" })
  return answer.body as unknown as Body
}

/** A sandbox helper's refusal head. */
export const sandboxRefused = async (client: MerchantClient, name: string, bizContent: unknown) => {
  const answer = await sandbox(client, name, bizContent)
  expect(answer.head.code, `sandbox ${name} succeeded`).not.toBe("0")
  return answer.head
}

/** The number of events on one stream. */
export const streamLength = (gateway: TestGateway, streamId: string) =>
  gateway.run(
    Effect.map(
      Effect.flatMap(EventStore, (store) => store.readStream(streamId)),
      (events) => events.length,
    ),
  )

/** Every recorded event as the text a store would keep, to search for what must never be there. */
export const storedText = async (gateway: TestGateway) =>
  JSON.stringify(await gateway.allEvents(), (_key, value) => (typeof value === "bigint" ? value.toString() : value))

/**
 * A gateway in production mode: no sandbox API, and no member directory,
 * holder-name directory or bank connected (their ports answer
 * "unavailable"). Production never makes service keys or a master key
 * file, so they are made here first.
 */
export const startProductionGateway = async () => {
  const keysDir = mkdtempSync(join(tmpdir(), "mizan-production-keys-"))
  const pair = generateKeyPair()
  const privateKeyFile = join(keysDir, "service-private.pem")
  const publicKeyFile = join(keysDir, "service-public.pem")
  writeFileSync(privateKeyFile, pair.privateKeyPem, { mode: 0o600 })
  writeFileSync(publicKeyFile, pair.publicKeyPem)
  const masterKeyFile = join(keysDir, "master-keys.json")
  writeMasterKeyFile(masterKeyFile, [newMasterKey()])
  const gateway = await startGateway({
    config: { ...testConfig(), mode: "production", serviceKeys: { privateKeyFile, publicKeyFile }, masterKeyFile },
  })
  return {
    ...gateway,
    close: async () => {
      await gateway.close()
      rmSync(keysDir, { recursive: true, force: true })
    },
  } satisfies TestGateway
}

/**
 * A query by merchantOrderNo answers 62004 for a number it never saw and
 * for another merchant's order (`placedNo`, placed by M1): one merchant
 * never sees another's orders.
 */
export const expectQueryAnswersOnlyOwnOrders = async (
  gateway: TestGateway,
  path: "/transfer/getTransferOrder" | "/transfer/getTransferToBankOrder" | "/transfer/getTransferToBankCard",
  placedNo: string,
) => {
  expect(await refused(gateway.merchant(), path, { merchantOrderNo: newNumber("never") })).toMatchObject({
    code: "62004",
  })
  expect(await refused(gateway.merchant("M2"), path, { merchantOrderNo: placedNo })).toMatchObject({ code: "62004" })
}

/**
 * Another merchant (M2) cannot drive M1's transfer through a sandbox helper:
 * 62004 when it names the order by merchantOrderNo, 62035 by the service's
 * orderNo. `fields` are the rest of the helper's request.
 */
export const expectSandboxReachesOnlyOwnOrders = async (
  gateway: TestGateway,
  helper: string,
  placed: { readonly merchantOrderNo: string; readonly orderNo: string },
  fields: Record<string, unknown>,
) => {
  const other = gateway.merchant("M2")
  expect(await sandboxRefused(other, helper, { merchantOrderNo: placed.merchantOrderNo, ...fields })).toMatchObject({
    code: "62004",
  })
  expect(await sandboxRefused(other, helper, { orderNo: placed.orderNo, ...fields })).toMatchObject({
    code: "62035",
  })
}
