import { Schema } from "effect"
import { type CodeName, codeCatalogue } from "./codes.ts"

/**
 * A domain decision that refuses a command, carrying the spec code it
 * answers with and a sentence that says what was wrong, in the domain's
 * words: fields by the names the domain's commands give them (`amountFils`,
 * `sharingParamList[1].sharingAmountFils`), amounts in AED with two
 * decimals. `decide` returns it as a value.
 *
 * A refusal about one field of the request carries that field as data
 * (`field`, its path in the command's request), so that a caller that
 * names the field otherwise knows which one the refusal is about without
 * reading the sentence: the merchant API writes the path in the request's
 * body (`amount`) where the domain says `amountFils`. Built by
 * `rejectField`, the sentence is the field, a space and the rest; any other
 * field the sentence names ("more than totalAmountFils") is named as the
 * domain names it too.
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

/**
 * A refusal; `field`, when given, is the request's field the sentence is
 * about, named somewhere in it ("... leave out sharingParamList").
 */
export const reject = (code: CodeName, detail: string, field?: string): Rejection =>
  new Rejection(field === undefined ? { code, detail } : { code, detail, field })

/**
 * A refusal about one field of the request (`field`, its path in the
 * command's request): the sentence is the field, then `rest`
 * ("amountFils AED 90.00 is more than the refundable AED 75.00").
 */
export const rejectField = (code: CodeName, field: string, rest: string): Rejection =>
  new Rejection({ code, field, detail: `${field} ${rest}` })

/**
 * 62004 MERCHANT_ORDER_NO_NOT_EXIST or 62035 ORDER_NO_NOT_EXIST: the number
 * a request named an order by (`field`: `merchantOrderNo`, `orderNo`,
 * `refundMerchantOrderNo`) names none of this merchant's; another
 * merchant's orders read as absent. Every lookup words it alike, and none
 * repeats the number: the merchant sent it, and a decider that finds no
 * order on a stream does not know it.
 */
export const namesNoOrder = (
  code: "MERCHANT_ORDER_NO_NOT_EXIST" | "ORDER_NO_NOT_EXIST",
  field: string,
  kind = "order",
): Rejection => rejectField(code, field, `names no ${kind} of this merchant`)
