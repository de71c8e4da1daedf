/**
 * @mizan/merchant-client: what a merchant embeds to call the service and
 * receive its notifications. Signs requests, verifies responses and
 * notifications, decodes bodies (amounts in fils).
 */
export { encryptField, type OperationPath, type RequestOf, type ResponseBodyOf } from "@mizan/protocol"
export * from "./client.ts"
export * from "./errors.ts"
export * from "./notifications.ts"
export { type Answer, type RawResponse, readAnswer, readResponse } from "./response.ts"
