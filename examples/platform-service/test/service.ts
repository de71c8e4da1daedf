/** The service on a free loopback port, on the store a setting names, as `npm start` runs it. */
import { execFile } from "node:child_process"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { ManagedRuntime } from "effect"
import { makeServer } from "../src/server.ts"
import { storeLayer } from "../src/store.ts"

export interface RunningService {
  readonly call: (
    method: string,
    path: string,
    body?: unknown,
  ) => Promise<{ status: number; body: Record<string, unknown> | null }>
  readonly stop: () => Promise<void>
}

export const startService = async (storeSetting: string): Promise<RunningService> => {
  const runtime = ManagedRuntime.make(storeLayer(storeSetting))
  const server = makeServer(runtime)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    call: async (method, path, body) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      })
      const text = await response.text()
      return { status: response.status, body: text === "" ? null : JSON.parse(text) }
    },
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await runtime.dispose()
    },
  }
}

/** Create, pay, refund part, complete it, read back: the whole embedding in one sequence. */
export const orderLifecycle = async (service: RunningService) => {
  const created = await service.call("POST", "/orders", {
    orderId: "order-1",
    amountFils: 10_000,
    description: "Team plan",
  })
  const paid = await service.call("POST", "/orders/order-1/payment")
  const refunded = await service.call("POST", "/orders/order-1/refunds", { refundId: "refund-1", amountFils: 2_500 })
  const completed = await service.call("POST", "/refunds/refund-1/completion")
  const read = await service.call("GET", "/orders/order-1")
  return { created, paid, refunded, completed, read }
}

/**
 * `mizan-audit ARGS`, the command the `@mizan/audit` package installs, as an
 * operator runs it on the service's store: its exit status and what it wrote.
 */
export const mizanAudit = (args: ReadonlyArray<string>) =>
  new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>((done) =>
    execFile(join(import.meta.dirname, "..", "node_modules", ".bin", "mizan-audit"), args, (error, stdout, stderr) =>
      done({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    ),
  )
