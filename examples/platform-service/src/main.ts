/**
 * `npm start`: the service on PORT (default 3000), its orders in the store
 * STORE names (default sqlite:platform.db, src/store.ts).
 */
import { ManagedRuntime } from "effect"
import { makeServer } from "./server.ts"
import { defaultStoreSetting, storeLayer } from "./store.ts"

const runtime = ManagedRuntime.make(storeLayer(process.env.STORE ?? defaultStoreSetting))
const port = Number(process.env.PORT ?? 3000)
const server = makeServer(runtime).listen(port, "127.0.0.1", () =>
  console.log(`platform-service listening on http://127.0.0.1:${port}`),
)
process.once("SIGTERM", () => server.close(() => void runtime.dispose()))
