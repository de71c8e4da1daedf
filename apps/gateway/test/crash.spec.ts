/**
 * A kill of the service in the middle of a load of creates: every order
 * acknowledged before the kill is there after the restart, and a client
 * that retries every request it sent (answered or not) gets the same order
 * back and creates no duplicate.
 */
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { MerchantClient } from "@mizan/merchant-client"
import { afterAll, describe, expect, it } from "vitest"
import { testConfig, testMerchant } from "./harness.ts"
import { call, clientOf, freePort, startService, stopService } from "./processes.ts"

const dataDir = mkdtempSync(join(tmpdir(), "mizan-crash-"))
const children: Array<ChildProcess> = []

afterAll(async () => {
  for (const child of children) await stopService(child)
  rmSync(dataDir, { recursive: true, force: true })
})

const create = (client: MerchantClient, merchantOrderNo: string) =>
  call(
    client.call("/acquire2/placeOrder", {
      merchantOrderNo,
      subject: "Crash test",
      totalAmount: { amount: 10, currency: "AED" },
      paySceneCode: "PAYPAGE",
    } as never),
  )

describe("a kill in the middle of a load of creates", () => {
  it("loses no acknowledged order and duplicates none when the client retries", { timeout: 90_000 }, async () => {
    const configPath = join(dataDir, "config.json")
    writeFileSync(configPath, JSON.stringify(testConfig({ merchants: [testMerchant("M1")], store: "sqlite:store.db" })))
    const port = await freePort()
    const first = await startService(configPath, port)
    children.push(first)
    const client = clientOf(dataDir, port)
    const numbers = Array.from({ length: 400 }, (_, i) => `crash-${i}`)
    const acknowledged = new Map<string, string>()
    let killed = false
    // Eight clients in parallel; the service is killed after the 100th acknowledgement, with creates in flight.
    await Promise.all(
      Array.from({ length: 8 }, async (_, lane) => {
        for (let i = lane; i < numbers.length && !killed; i += 8) {
          const merchantOrderNo = numbers[i] as string
          const answer = await create(client, merchantOrderNo).catch(() => undefined)
          if (answer !== undefined && !killed) acknowledged.set(merchantOrderNo, answer.acquireOrder.orderNo)
          if (acknowledged.size >= 100 && !killed) {
            killed = true
            first.kill("SIGKILL")
          }
        }
      }),
    )
    expect(killed).toBe(true)
    await stopService(first)
    children.push(await startService(configPath, port))
    // The client retries everything it meant to send, answered or not.
    const after = new Map<string, string>()
    for (const merchantOrderNo of numbers)
      after.set(merchantOrderNo, (await create(client, merchantOrderNo)).acquireOrder.orderNo)
    for (const [merchantOrderNo, orderNo] of acknowledged) expect(after.get(merchantOrderNo)).toBe(orderNo)
    expect(new Set(after.values()).size).toBe(numbers.length)
  })
})
