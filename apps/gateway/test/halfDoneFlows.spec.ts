/**
 * Half-done flows finish by themselves: a gateway killed with SIGKILL right
 * after a flow's first append (a refund reserved on its order, a wallet
 * transfer placed) leaves the flow's second step undone; the next process
 * completes it within a minute of its start, with no retry from the
 * merchant, and the audit replays the log clean afterwards. The kill is the
 * sandbox's test hook (`MIZAN_TEST_KILL_AFTER_APPENDING`, src/startup/crashHook.ts):
 * the process dies right after the append is acknowledged, before anything
 * else runs.
 */
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { MerchantCallError, MerchantClient } from "@mizan/merchant-client"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { killAfterAppendingVariable } from "../src/startup/crashHook.ts"
import { testConfig, testMerchant } from "./harness.ts"
import { waitUntil } from "./merchantEndpoint.ts"
import { auditReplay, call, clientOf, freePort, startService, stopService, writeConfig } from "./processes.ts"

const dataDir = mkdtempSync(join(tmpdir(), "mizan-half-done-"))
const children: Array<ChildProcess> = []

afterAll(async () => {
  for (const child of children) await stopService(child)
  rmSync(dataDir, { recursive: true, force: true })
})

const configPath = writeConfig(dataDir, testConfig({ merchants: [testMerchant("M1")], store: "sqlite:store.db" }))

/** A gateway process on the test's store, killing itself after appending `killAfter` when named. */
const start = async (port: number, killAfter?: string) => {
  const child = await startService(configPath, port, {
    env: killAfter === undefined ? {} : { [killAfterAppendingVariable]: killAfter },
  })
  children.push(child)
  return child
}

const killedBy = (child: ChildProcess) =>
  new Promise<NodeJS.Signals | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode)
    else child.once("exit", (_code, signal) => resolve(signal))
  })

/** What a call answered: its head code ("0" for success), or the error's tag when no answer came. */
const codeOf = (effect: Effect.Effect<unknown, MerchantCallError>) =>
  call(
    effect.pipe(
      Effect.as("0"),
      Effect.catchTag("ServiceRefused", (refused) => Effect.succeed(refused.code)),
      Effect.catch((error) => Effect.succeed(error._tag)),
    ),
  )

const placePaidOrder = async (client: MerchantClient, merchantOrderNo: string) => {
  await call(
    client.call("/acquire2/placeOrder", {
      merchantOrderNo,
      subject: "Half done",
      totalAmount: { amount: 100, currency: "AED" },
      paySceneCode: "PAYPAGE",
    } as never),
  )
  await call(client.sandbox("payOrder", { merchantOrderNo }))
}

const refundRequest = {
  refundMerchantOrderNo: "half-refund-1",
  originMerchantOrderNo: "half-1",
  amount: { amount: 30, currency: "AED" },
}

describe("a gateway killed between a flow's two appends", () => {
  it("completes the refund and the wallet transfer itself after the restart, and the audit replays clean", {
    timeout: 150_000,
  }, async () => {
    const port = await freePort()

    // Killed right after the refund's reservation: its refund order is never created.
    const first = await start(port, "RefundReserved")
    const client = clientOf(dataDir, port)
    await placePaidOrder(client, "half-1")
    expect(await codeOf(client.call("/acquire2/refund/placeOrder", refundRequest as never))).not.toBe("0")
    expect(await killedBy(first)).toBe("SIGKILL")

    // Killed right after the wallet transfer is placed: the member is never credited, the order never settled.
    const second = await start(port, "WalletTransferPlaced")
    expect(
      await codeOf(client.call("/acquire2/refund/getOrder", { refundMerchantOrderNo: "half-refund-1" } as never)),
    ).toBe("62004")
    const transfer = {
      merchantOrderNo: "half-wallet-1",
      beneficiaryIdentityType: "PHONE_NO",
      beneficiaryIdentity: client.encryptField("971500000001"),
      memo: "Half done",
      amount: { amount: 10, currency: "AED" },
    }
    expect(await codeOf(client.call("/transfer/placeTransferOrder", transfer as never))).not.toBe("0")
    expect(await killedBy(second)).toBe("SIGKILL")

    // The third process is left alone: no merchant retries anything, and within a minute both flows are whole.
    const restartedAt = Date.now()
    await start(port)
    await waitUntil(
      async () =>
        (await codeOf(
          client.call("/acquire2/refund/getOrder", { refundMerchantOrderNo: "half-refund-1" } as never),
        )) === "0",
      "the refund order is created",
      60_000,
    )
    await waitUntil(
      async () => {
        const answer = await call(
          client.call("/transfer/getTransferOrder", { merchantOrderNo: "half-wallet-1" } as never),
        ).catch(() => undefined)
        return (answer as { transferOrder?: { status?: string } } | undefined)?.transferOrder?.status === "SUCCESS"
      },
      "the wallet transfer is settled",
      60_000,
    )
    expect(Date.now() - restartedAt).toBeLessThan(60_000)

    const refund = (await call(
      client.call("/acquire2/refund/getOrder", { refundMerchantOrderNo: "half-refund-1" } as never),
    )) as { refundOrder: { orderNo: string; status: string; amount: number } }
    // The merchant client reads amounts in fils: AED 30.00.
    expect(refund.refundOrder).toMatchObject({ status: "CREATED", amount: 3_000 })
    // The merchant's retry, when it comes, answers that very refund.
    const retried = (await call(client.call("/acquire2/refund/placeOrder", refundRequest as never))) as {
      refundOrder: { orderNo: string }
    }
    expect(retried.refundOrder.orderNo).toBe(refund.refundOrder.orderNo)

    for (const child of children) await stopService(child)
    const audit = await auditReplay(`sqlite:${join(dataDir, "store.db")}`, dataDir)
    expect(audit.stderr).toBe("")
    expect(JSON.parse(audit.stdout)).toMatchObject({ ok: true, brokenInvariants: { total: 0 } })
    expect(audit.code).toBe(0)
  })
})
