/** Every route the gateway serves, by mode. */
import { Layer } from "effect"
import { handlers } from "../handlers/index.ts"
import { openApiRoute } from "../openapi.ts"
import { type PayPageSettings, payPageRoutes } from "../payPage/index.ts"
import { merchantApi } from "../pipeline/pipeline.ts"
import { sandboxApi, sandboxApiOff } from "../sandbox/index.ts"
import { apiRoutes } from "./server.ts"

export const gatewayRoutes = (mode: "sandbox" | "production", payPage?: PayPageSettings) =>
  Layer.mergeAll(
    apiRoutes(merchantApi(handlers)),
    apiRoutes(mode === "sandbox" ? sandboxApi : sandboxApiOff),
    payPageRoutes(mode, payPage),
    openApiRoute(mode === "sandbox" ? [merchantApi(handlers), sandboxApi] : [merchantApi(handlers)]),
  )
