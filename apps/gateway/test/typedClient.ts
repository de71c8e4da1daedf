/**
 * A merchant's client typed by nothing but the OpenAPI description: the
 * types are what `openapi-typescript` generates from `GET /openapi.json`
 * (test/fixtures/openapiTypes.ts, kept equal to a fresh generation by
 * test/openapiClient.spec.ts). It signs the body it sends, as any client
 * must; everything else it knows comes from the description.
 */
import { type PrivateKey, sign } from "@mizan/protocol"
import type { paths } from "./fixtures/openapiTypes.ts"

type Post<P extends keyof paths> = paths[P]["post"]
type Json<T> = T extends { readonly content: { readonly "application/json": infer Body } } ? Body : never

/** What the description says a request to `path` is. */
export type RequestOf<P extends keyof paths> = Json<NonNullable<Post<P>>["requestBody"]>
/** What the description says the signed 200 answer of `path` is. */
export type AnswerOf<P extends keyof paths> = Json<NonNullable<Post<P>>["responses"][200]>

export interface TypedClient {
  readonly post: <P extends keyof paths>(path: P, request: RequestOf<P>) => Promise<AnswerOf<P>>
}

export const typedClient = (baseUrl: string, partnerId: string, privateKey: PrivateKey): TypedClient => ({
  post: async (path, request) => {
    const body = JSON.stringify(request)
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "Partner-Id": partnerId, sign: sign(body, privateKey) },
    })
    return (await response.json()) as AnswerOf<typeof path>
  },
})
