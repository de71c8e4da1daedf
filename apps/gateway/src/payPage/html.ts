/**
 * HTML that is escaped by construction: the `html` tag escapes every value
 * interpolated into it, unless the value is itself `Html` made by the tag.
 * A merchant's subject `<script>` is text on the page, never markup; no
 * view has to remember to call an escape function.
 */

/** Markup made by the `html` tag (or `rawHtml` for the program's own constants). */
export interface Html {
  readonly _tag: "Html"
  readonly markup: string
}

/** What a view may interpolate: text (escaped), markup, nothing, or a list of them. */
export type Interpolated = Html | string | number | undefined | false | ReadonlyArray<Interpolated>

const entities: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
}

/** Escapes text for an element's content or a quoted attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => entities[c] ?? c)

/** Markup this program wrote itself (the style sheet): never for data. */
export const rawHtml = (markup: string): Html => ({ _tag: "Html", markup })

const isHtml = (value: unknown): value is Html =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "Html"

const render = (value: Interpolated): string => {
  if (value === undefined || value === false) return ""
  if (isHtml(value)) return value.markup
  if (Array.isArray(value)) return value.map(render).join("")
  return escapeHtml(String(value))
}

export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<Interpolated>): Html =>
  rawHtml(strings.reduce((markup, text, i) => markup + render(values[i - 1] as Interpolated) + text))

/** The doctype and document: the only place markup is joined without the tag. */
export const documentOf = (page: Html): string => `<!doctype html>\n${page.markup}\n`
