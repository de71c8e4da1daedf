/**
 * The bare server's work (bareServer.ts) served through effect/http, as the
 * gateway is served: `HttpRouter.serve` on `NodeHttpServer`, a fiber per
 * request, the body read with `arrayBuffer`, the answer awaited from the
 * group commit and signed in the thread pool as Effect steps, the response an
 * `HttpServerResponse`. What it costs beyond the `node:http` edge is what
 * the framework costs a request before any of the gateway's own layers.
 */
import { createServer } from "node:http"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"

export interface EffectEdgeOptions {
  readonly port: number
  /** The bare server's create: verified, queued, answered with its envelope once durable. */
  readonly take: (raw: Buffer, signature: string | undefined, reply: (envelope: unknown) => void) => void
  readonly signBody: (body: string, signed: (error: Error | null, signature: Buffer) => void) => void
  /** Closes the bare server's database once the server has stopped. */
  readonly close: () => void
}

export const serveThroughEffectHttp = (options: EffectEdgeOptions) => {
  const create = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const raw = Buffer.from(yield* request.arrayBuffer)
    const envelope = yield* Effect.callback<unknown>((resume) => {
      options.take(raw, request.headers.sign, (answered) => resume(Effect.succeed(answered)))
    })
    const body = JSON.stringify(envelope)
    const signature = yield* Effect.callback<Buffer>((resume) => {
      options.signBody(body, (error, signed) => resume(error === null ? Effect.succeed(signed) : Effect.die(error)))
    })
    return HttpServerResponse.text(body, {
      contentType: "application/json; charset=utf-8",
      headers: { sign: signature.toString("base64") },
    })
  })
  const routes = Layer.mergeAll(
    HttpRouter.add("GET", "/health", HttpServerResponse.text("ok")),
    HttpRouter.add("POST", "/*", create),
  )
  const server = HttpRouter.serve(routes, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port: options.port, host: "127.0.0.1" })),
  )
  NodeRuntime.runMain(Layer.launch(server).pipe(Effect.ensuring(Effect.sync(options.close))))
}
