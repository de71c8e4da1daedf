/** Calls through the merchant client, as promises, for readable tests. */
import type { MerchantClient, OperationPath, RequestOf, ResponseBodyOf } from "@mizan/merchant-client"
import { Effect } from "effect"
import { expect } from "vitest"
import { newNumber, type TestGateway } from "./harness.ts"

/** The decoded body of a successful call; throws with head.code and msg otherwise. */
export const ok = <P extends OperationPath>(client: MerchantClient, path: P, bizContent?: RequestOf<P>) =>
  Effect.runPromise(
    (client.call as (path: P, biz?: RequestOf<P>) => Effect.Effect<ResponseBodyOf<P>, { message: string }>)(
      path,
      bizContent,
    ),
  )

/** The refusal of a call: `{ code, msg, applyStatus, httpStatus }`; throws when the call succeeds. */
export const refused = async <P extends OperationPath>(client: MerchantClient, path: P, bizContent?: RequestOf<P>) => {
  const exit = await Effect.runPromise(
    Effect.flip((client.call as (path: P, biz?: RequestOf<P>) => Effect.Effect<unknown, unknown>)(path, bizContent)),
  )
  const failure = exit as { _tag: string; code?: string; msg?: string; applyStatus?: string; httpStatus?: number }
  if (failure._tag !== "ServiceRefused") throw new Error(`expected a refusal, got ${failure._tag}: ${String(exit)}`)
  return {
    code: failure.code ?? "",
    msg: failure.msg ?? "",
    applyStatus: failure.applyStatus ?? "",
    httpStatus: failure.httpStatus,
  }
}

/**
 * A sandbox helper call (`/sgs/sandbox/<name>`) through the merchant client,
 * which signs the request and verifies the answer's signature as a
 * merchant's own client does: the answer's head (its code, and the msg of a
 * refusal) and its body. A transport failure or an answer that does not
 * verify throws.
 */
export const sandbox = (client: MerchantClient, name: string, bizContent: unknown) =>
  Effect.runPromise(
    client.sandbox(name, bizContent).pipe(
      Effect.map((body) => ({ head: { code: "0", msg: undefined as string | undefined }, body })),
      Effect.catchTag("ServiceRefused", (refusal) =>
        Effect.succeed({ head: { code: refusal.code, msg: refusal.msg }, body: undefined }),
      ),
    ),
  ) as Promise<{ head: { code: string; msg?: string | undefined }; body?: Record<string, never> }>

/** An amount as the wire writes it: `aed(10.5)` is `{ amount: 10.5, currency: "AED" }`. */
export const aed = (amount: number) => ({ amount, currency: "AED" as const })

interface OrderTerms {
  readonly amount?: number
  readonly extra?: Record<string, unknown>
}

/**
 * Places an order of `amount` AED (100 unless said) for the gateway's first
 * merchant, with `extra` fields; answers its merchantOrderNo.
 */
export const placeOrder = async (gateway: TestGateway, { amount = 100, extra = {} }: OrderTerms = {}) => {
  const merchantOrderNo = newNumber("order")
  await ok(gateway.merchant(), "/acquire2/placeOrder", {
    merchantOrderNo,
    subject: "An order",
    totalAmount: aed(amount),
    paySceneCode: "PAYPAGE",
    ...extra,
  } as never)
  return merchantOrderNo
}

/** Places an order as `placeOrder` does, and pays it through the sandbox; answers its merchantOrderNo. */
export const placePaidOrder = async (gateway: TestGateway, terms: OrderTerms = {}) => {
  const merchantOrderNo = await placeOrder(gateway, terms)
  const paid = await sandbox(gateway.merchant(), "payOrder", { merchantOrderNo })
  expect(paid.head.code, `payOrder: ${paid.head.msg}`).toBe("0")
  return merchantOrderNo
}
