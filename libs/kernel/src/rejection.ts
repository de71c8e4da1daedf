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
