/** Serves src/routes.ts on node:http: JSON in, JSON out, with a bounded body. */
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { EventStore } from "@mizan/eventsourcing"
import type { ManagedRuntime } from "effect"
import { type Answer, route } from "./routes.ts"

/** No request of this service comes near it; a bigger body is refused before it is read whole. */
export const bodyLimitBytes = 16_384

const readBody = async (request: IncomingMessage): Promise<unknown> => {
  let text = ""
  for await (const chunk of request) {
    text += chunk
    if (text.length > bodyLimitBytes) throw new Error(`the body is over ${bodyLimitBytes} bytes`)
  }
  return text === "" ? undefined : JSON.parse(text)
}

export const makeServer = (runtime: ManagedRuntime.ManagedRuntime<EventStore, unknown>): Server =>
  createServer(async (request, response) => {
    let answer: Answer
    try {
      const body = await readBody(request)
      const path = new URL(request.url ?? "/", "http://service").pathname
      answer = await runtime
        .runPromise(route({ method: request.method ?? "GET", path, body }))
        // Only a store that cannot even open reaches here (route answers everything else): the service is unavailable.
        .catch((error: unknown) => ({ status: 503, body: { error: "UNAVAILABLE", message: String(error) } }))
    } catch (error) {
      answer = { status: 400, body: { error: "BAD_REQUEST", message: (error as Error).message } }
    }
    response.writeHead(answer.status, { "content-type": "application/json" })
    response.end(answer.status === 204 ? undefined : JSON.stringify(answer.body))
  })
