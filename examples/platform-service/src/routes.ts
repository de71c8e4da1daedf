/**
 * The service's HTTP routes, as a function from a request to an answer, so
 * that tests can drive them without a socket (src/server.ts serves them):
 *
 *   POST /orders                       {"orderId","amountFils","description"}
 *   POST /orders/:orderId/payment      the provider reports the order paid
 *   POST /orders/:orderId/refunds      {"refundId","amountFils"}
 *   POST /refunds/:refundId/completion the bank reports the refund paid back
 *   GET  /orders/:orderId
 *
 * Every answer is JSON: an order view, or {"error","message"}.
 */
import type { EventStore } from "@mizan/eventsourcing"
import { type Rejection, timestamp } from "@mizan/kernel"
import { Clock, Effect, Schema } from "effect"
import { completeRefund, createOrder, orderView, payOrder, readOrder, refundOrder } from "./payments.ts"

export interface Request {
  readonly method: string
  readonly path: string
  readonly body: unknown
}

export interface Answer {
  readonly status: number
  readonly body: unknown
}

const Id = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9_-]{1,64}$/, { message: "must be 1 to 64 letters, digits, _ or -" }),
)
const AmountFils = Schema.Int.check(Schema.isGreaterThan(0, { message: "must be a positive whole number of fils" }))

const NewOrderBody = Schema.Struct({
  orderId: Id,
  amountFils: AmountFils,
  // Mizan keeps an order's subject to 12 characters.
  description: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(12)),
})
const NewRefundBody = Schema.Struct({ refundId: Id, amountFils: AmountFils })

const answer = (status: number, body: unknown): Answer => ({ status, body })

/** Mizan's refusals answer 404 when the order does not exist, 409 when its state forbids the request. */
const refused = (rejection: Rejection): Answer =>
  answer(rejection.code === "MERCHANT_ORDER_NO_NOT_EXIST" || rejection.code === "ORDER_NO_NOT_EXIST" ? 404 : 409, {
    error: rejection.code,
    message: rejection.detail,
  })

const decodeBody = <S extends Schema.Decoder<unknown>>(schema: S, body: unknown) =>
  Schema.decodeUnknownEffect(schema)(body).pipe(
    Effect.mapError((issue) => answer(400, { error: "BAD_REQUEST", message: String(issue) })),
  )

const now = Effect.map(Clock.currentTimeMillis, timestamp)

const dispatch = (request: Request) =>
  Effect.gen(function* () {
    const segments = request.path.split("/").filter((s) => s !== "")
    const at = yield* now
    const [collection, id, action, extra] = segments
    if (extra !== undefined) return answer(404, { error: "NOT_FOUND", message: `no route ${request.path}` })
    if (request.method === "POST" && collection === "orders" && id === undefined) {
      const body = yield* decodeBody(NewOrderBody, request.body)
      return answer(201, orderView(yield* createOrder(body, at)))
    }
    if (collection === "orders" && id !== undefined) {
      if (request.method === "GET" && action === undefined) return answer(200, orderView(yield* readOrder(id, at)))
      if (request.method === "POST" && action === "payment") return answer(200, orderView(yield* payOrder(id, at)))
      if (request.method === "POST" && action === "refunds") {
        const body = yield* decodeBody(NewRefundBody, request.body)
        return answer(201, orderView(yield* refundOrder(id, body, at)))
      }
    }
    if (request.method === "POST" && collection === "refunds" && id !== undefined && action === "completion") {
      yield* completeRefund(id, at)
      return answer(204, null)
    }
    return answer(404, { error: "NOT_FOUND", message: `no route ${request.method} ${request.path}` })
  })

export const route = (request: Request): Effect.Effect<Answer, never, EventStore> =>
  dispatch(request).pipe(
    Effect.catchTags({
      Rejection: (rejection) => Effect.succeed(refused(rejection)),
      // Two requests raced on one order: the loser's retry sees the winner's events.
      VersionConflict: () => Effect.succeed(answer(503, { error: "RETRY", message: "the order changed meanwhile" })),
      StoreError: (error) => Effect.succeed(answer(503, { error: "STORE_UNAVAILABLE", message: error.message })),
    }),
    Effect.catch((failure) => Effect.succeed(failure as Answer)),
  )
