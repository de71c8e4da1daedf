import { Schema } from "effect"
import { type CodeName, codeCatalogue } from "./codes.ts"

/**
 * A domain decision that refuses a command, carrying the spec code it
 * answers with and a sentence for `head.msg` that says what was wrong.
 * `decide` returns it as a value; the gateway writes it into `head`.
 *
 * A sentence about one field of the request may carry that field as data
 * (`field`, its path in the body), so that a caller that knows the field by
 * another name renames it (`renameField`) without reading the sentence.
 * Built by `rejectField`, the sentence is then the field, a space and the
 * rest. Only refusals some caller renames carry it: a field whose name is
 * the same in every request that reaches the rule stays in the sentence.
 */
export class Rejection extends Schema.TaggedError<Rejection>()("Rejection", {
  code: Schema.Literals(Object.keys(codeCatalogue) as Array<CodeName>),
  detail: Schema.String,
  field: Schema.optionalKey(Schema.String),
}) {
  /** The wire code, e.g. "62006". */
  get wireCode(): string {
    return codeCatalogue[this.code].code
  }
  override get message(): string {
    return `${this.code}: ${this.detail}`
  }
}

export const reject = (code: CodeName, detail: string): Rejection => new Rejection({ code, detail })

/**
 * A refusal about one field of the request (`field`, its path in the body):
 * the sentence is the field, then `rest` ("bizContent.refundMerchantOrderNo
 * is already used ..."), and the field stays apart for `renameField`.
 */
export const rejectField = (code: CodeName, field: string, rest: string): Rejection =>
  new Rejection({ code, field, detail: `${field} ${rest}` })

/**
 * The same refusal naming its field as the caller's request did: `names`
 * maps a field as the domain names it to the caller's name for it (a refund
 * names the order it refunds by `bizContent.originMerchantOrderNo` where
 * the order's own rules say `bizContent.merchantOrderNo`). A refusal whose
 * field is not in `names`, or that carries none, is answered as it is.
 */
export const renameField = (rejection: Rejection, names: Readonly<Record<string, string>>): Rejection => {
  const { field, detail } = rejection
  if (field === undefined || !Object.hasOwn(names, field)) return rejection
  const renamed = names[field] as string
  // rejectField wrote the sentence as the field, a space and the rest; a
  // refusal built otherwise names its field where its sentence chose to.
  return new Rejection({
    code: rejection.code,
    field: renamed,
    detail: detail.startsWith(`${field} `)
      ? `${renamed}${detail.slice(field.length)}`
      : detail.replaceAll(field, renamed),
  })
}

/**
 * 62004 MERCHANT_ORDER_NO_NOT_EXIST or 62035 ORDER_NO_NOT_EXIST: the number
 * a request named an order by (`field`, its path in the request) names none
 * of this merchant's; another merchant's orders read as absent. Every lookup
 * words it alike, and none repeats the number: the merchant sent it, and a
 * decider that finds no order on a stream does not know it.
 */
export const namesNoOrder = (
  code: "MERCHANT_ORDER_NO_NOT_EXIST" | "ORDER_NO_NOT_EXIST",
  field: string,
  kind = "order",
): Rejection => rejectField(code, field, `names no ${kind} of this merchant`)
