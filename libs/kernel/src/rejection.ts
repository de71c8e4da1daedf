import { Schema } from "effect"
import { type CodeName, codeCatalogue } from "./codes.ts"

/**
 * A domain decision that refuses a command, carrying the spec code it
 * answers with and a sentence for `head.msg` that says what was wrong.
 * `decide` returns it as a value; the gateway writes it into `head`.
 */
export class Rejection extends Schema.TaggedError<Rejection>()("Rejection", {
  code: Schema.Literals(Object.keys(codeCatalogue) as Array<CodeName>),
  detail: Schema.String,
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
): Rejection => reject(code, `${field} names no ${kind} of this merchant`)
