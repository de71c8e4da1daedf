import { Schema } from "effect"

const mustBeWhole = "must be a whole number"

/**
 * An integer field. The wire's JSON parser hands on every number that is not
 * a plain safe integer (`1.5`, `1e3`) as its source text so that amounts stay
 * exact (`parseJson` in `@mizan/protocol`), so an integer field meets `1.5` as
 * text: Effect's own "Expected number" then told a merchant who sent a number
 * that it must be one. Both refusals say what the field wants.
 */
export const WholeNumber = Schema.Number.annotate({ message: mustBeWhole }).check(
  Schema.isInt({ message: mustBeWhole }),
)
