/**
 * The operation catalogue: every path the merchant API serves
 * under `/sgs/api` (docs/api.md#operations), with its bizContent schema, its response body schema and
 * its encrypted fields. The gateway routes on it; the merchant client types
 * `call(path, bizContent)` by it; the OpenAPI description is generated from it.
 */
import { issueMessage } from "@mizan/kernel"
import { Result, Schema } from "effect"
import type { ResponseHead, ResponseHeadWithSuccess } from "./envelope.ts"
import {
  AcquireOrderResponse,
  CreateOrderRequest,
  CreateOrderResponse,
  createOrderSensitive,
  OrderIndexRequest,
  PayerResponse,
} from "./wire/acquiring.ts"
import { CardTransferRequest, CardTransferResponse, cardTransferSensitive } from "./wire/card-transfer.ts"
import type { SensitiveField } from "./wire/fields.ts"
import {
  BankTransferRequest,
  bankSensitive,
  CalculateFundoutRequest,
  CalculateFundoutResponse,
  FundoutAbilityListResponse,
  IbanHolderNameRequest,
  IbanHolderNameResponse,
  NoBizContent,
  TransferToBankOrderResponse,
} from "./wire/payout.ts"
import { GetRefundRequest, GetRefundResponse, RefundRequest, RefundResponse, refundSensitive } from "./wire/refund.ts"
import {
  MerchantOrderIndexRequest,
  TransferOrderResponse,
  WalletTransferRequest,
  walletTransferSensitive,
} from "./wire/wallet-transfer.ts"

/** Every operation is `POST` under this base path (docs/api.md#transport). */
export const apiBasePath = "/sgs/api"
/** A sandbox-mode gateway serves its helpers (payOrder, advanceClock, ...) under this one (docs/api.md#sandbox). */
export const sandboxBasePath = "/sgs/sandbox"

/** A wire schema with no services: decodes the wire form, encodes back to it. */
type WireSchema = Schema.Codec<unknown, unknown, never, never>

export interface Operation<
  Request extends WireSchema,
  Response extends WireSchema,
  HeadSuccess extends boolean = boolean,
> {
  /** The operation's name in the spec. */
  readonly name: string
  readonly request: Request
  readonly response: Response
  /** Encrypted bizContent fields by name (list items by the list's name and the field: "sharingParamList[].sharingIdentity"). */
  readonly sensitive: Readonly<Record<string, SensitiveField>>
  /**
   * Whether every answer's head carries `success` (`withHeadSuccess`): where
   * PayBy's documentation shows it in the operation's answer. Of the pages of
   * the operations served here, only create order's sample has it (the cashier
   * URL and card payout eligibility pages show it too, operations not served).
   */
  readonly headSuccess: HeadSuccess
}

const operation = <Request extends WireSchema, Response extends WireSchema>(
  name: string,
  request: Request,
  response: Response,
  sensitive: Readonly<Record<string, SensitiveField>> = {},
): Operation<Request, Response, false> => ({ name, request, response, sensitive, headSuccess: false })

/** An operation whose answers carry `head.success`, as its documentation's sample shows. */
const withSuccessInHead = <Request extends WireSchema, Response extends WireSchema>(
  row: Operation<Request, Response, false>,
): Operation<Request, Response, true> => ({ ...row, headSuccess: true })

export const operations = {
  "/acquire2/placeOrder": withSuccessInHead(
    operation("Create order", CreateOrderRequest, CreateOrderResponse, {
      "paySceneParams.eid": createOrderSensitive.eid,
      "sharingParamList[].sharingIdentity": createOrderSensitive.sharingIdentity,
    }),
  ),
  "/acquire2/getOrder": operation("Get order", OrderIndexRequest, AcquireOrderResponse),
  "/acquire2/getOrderPayer": operation("Get order payer", OrderIndexRequest, PayerResponse),
  "/acquire2/refund/placeOrder": operation("Refund order", RefundRequest, RefundResponse, {
    "sharingParamList[].sharingIdentity": refundSensitive.sharingIdentity,
  }),
  "/acquire2/refund/getOrder": operation("Get refund order", GetRefundRequest, GetRefundResponse),
  "/acquire2/revokeOrder": operation("Revoke order", OrderIndexRequest, AcquireOrderResponse),
  "/acquire2/cancelOrder": operation("Cancel unpaid order", OrderIndexRequest, AcquireOrderResponse),
  "/transfer/placeTransferOrder": operation(
    "Wallet transfer",
    WalletTransferRequest,
    TransferOrderResponse,
    walletTransferSensitive,
  ),
  "/transfer/getTransferOrder": operation("Get wallet transfer", MerchantOrderIndexRequest, TransferOrderResponse),
  "/transfer/getFundoutAbilityList": operation("Payout ability list", NoBizContent, FundoutAbilityListResponse),
  "/transfer/calculateFundout": operation("Rate calculator", CalculateFundoutRequest, CalculateFundoutResponse),
  "/transfer/getIbanHolderName": operation("IBAN holder name", IbanHolderNameRequest, IbanHolderNameResponse, {
    holderName: bankSensitive.holderName,
    iban: bankSensitive.iban,
    beneficiaryAddress: bankSensitive.beneficiaryAddress,
    accountNo: bankSensitive.accountNo,
  }),
  "/transfer/placeTransferToBankOrder": operation(
    "Place bank transfer",
    BankTransferRequest,
    TransferToBankOrderResponse,
    bankSensitive,
  ),
  "/transfer/getTransferToBankOrder": operation(
    "Get bank transfer",
    MerchantOrderIndexRequest,
    TransferToBankOrderResponse,
  ),
  "/transfer/placeTransferToBankCard": operation(
    "Bank card transfer",
    CardTransferRequest,
    CardTransferResponse,
    cardTransferSensitive,
  ),
  "/transfer/getTransferToBankCard": operation(
    "Get bank card transfer",
    MerchantOrderIndexRequest,
    CardTransferResponse,
  ),
} as const

export type Operations = typeof operations
export type OperationPath = keyof Operations

export const operationPaths = Object.keys(operations) as ReadonlyArray<OperationPath>

export const isOperationPath = (path: string): path is OperationPath => Object.hasOwn(operations, path)

/**
 * Paths that name an operation under another prefix: the official PHP SDK
 * posts every call under `/acquire2`, transfers included
 * (`/acquire2/transfer/placeTransferOrder`). Each alias is the same
 * operation as its spec path: the same grant, rate limit and answer.
 */
export const operationAliases: Readonly<Record<string, OperationPath>> = Object.fromEntries(
  operationPaths.filter((path) => path.startsWith("/transfer/")).map((path) => [`/acquire2${path}`, path]),
)

/** bizContent as a client writes it (amounts as JSON numbers). */
export type RequestOf<P extends OperationPath> = Operations[P]["request"]["Encoded"]
/** bizContent once decoded (amounts in fils). */
export type DecodedRequestOf<P extends OperationPath> = Operations[P]["request"]["Type"]
/** The response `body` as the service holds it (amounts in fils). */
export type ResponseBodyOf<P extends OperationPath> = Operations[P]["response"]["Type"]
/** The response `body` as it travels. */
export type WireResponseBodyOf<P extends OperationPath> = Operations[P]["response"]["Encoded"]
/** The answer's head: with `success` where the operation's answers carry it (`headSuccess`). */
export type ResponseHeadOf<P extends OperationPath> = Operations[P]["headSuccess"] extends true
  ? ResponseHeadWithSuccess
  : ResponseHead

/** bizContent broke the operation's schema; `message` names every field and rule, as head.msg. */
export class InvalidBizContent extends Schema.TaggedError<InvalidBizContent>()("InvalidBizContent", {
  message: Schema.String,
}) {}

/** Report every broken field at once, so a merchant fixes a request in one round trip. */
const allErrors = { errors: "all" } as const

/**
 * Decodes the bizContent of a parsed request body for an operation. Unknown
 * fields are dropped; messages name the field path from `bizContent`:
 * "bizContent.subject must be at most 12 characters".
 */
export const decodeBizContent = <P extends OperationPath>(
  path: P,
  bizContent: unknown,
): Result.Result<DecodedRequestOf<P>, InvalidBizContent> => {
  const schema = operations[path].request as WireSchema
  const decoded = Schema.decodeUnknownResult(schema, allErrors)(bizContent)
  if (Result.isSuccess(decoded)) return Result.succeed(decoded.success as DecodedRequestOf<P>)
  const message =
    bizContent === undefined ? "bizContent is required" : issueMessage(decoded.failure.issue, ["bizContent"])
  return Result.fail(new InvalidBizContent({ message }))
}

/** A value that breaks its wire schema on the way out: a bug in the caller, reported by field path, never by value. */
export class WireEncodingError extends Error {
  override readonly name = "WireEncodingError"
}

/** Encodes a value to its wire form with a schema, or throws `WireEncodingError`. */
export const encodeWire = <S extends WireSchema>(schema: S, value: S["Type"], what: string): S["Encoded"] => {
  const encoded = Schema.encodeUnknownResult(schema, allErrors)(value)
  if (Result.isSuccess(encoded)) return encoded.success
  throw new WireEncodingError(`${what} breaks its wire schema: ${issueMessage(encoded.failure.issue, [what])}`)
}

/** Encodes a response body (amounts in fils) to its wire form (amounts as JSON numbers). */
export const encodeResponseBody = <P extends OperationPath>(path: P, body: ResponseBodyOf<P>): WireResponseBodyOf<P> =>
  encodeWire(operations[path].response as WireSchema, body, "body") as WireResponseBodyOf<P>

/** A response body that breaks the operation's response schema; `message` names the fields from `body`. */
export class InvalidResponseBody extends Schema.TaggedError<InvalidResponseBody>()("InvalidResponseBody", {
  message: Schema.String,
}) {}

/** Decodes a response body of an operation, as the merchant client does. */
export const decodeResponseBody = <P extends OperationPath>(
  path: P,
  body: unknown,
): Result.Result<ResponseBodyOf<P>, InvalidResponseBody> => {
  const decoded = Schema.decodeUnknownResult(operations[path].response as WireSchema, allErrors)(body)
  return Result.isSuccess(decoded)
    ? Result.succeed(decoded.success as ResponseBodyOf<P>)
    : Result.fail(new InvalidResponseBody({ message: issueMessage(decoded.failure.issue, ["body"]) }))
}
