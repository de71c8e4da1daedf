/**
 * The comments of a TypeScript or JavaScript source, each with the line it
 * starts on. A small scanner rather than a parser: it skips string and
 * template literals (so `"libs/kernel"` in code is not a comment) and regular
 * expression literals (so `/\/\//` does not open one), which is all that a
 * comment's boundaries depend on.
 */

export interface Comment {
  readonly line: number
  readonly text: string
}

/** After one of these (or at the start), a `/` opens a regular expression rather than dividing. */
const beforeRegex = new Set([
  "",
  "(",
  ",",
  "=",
  ":",
  "[",
  "!",
  "&",
  "|",
  "?",
  "{",
  "}",
  ";",
  "+",
  "-",
  "*",
  "%",
  "<",
  ">",
  "~",
  "^",
])
const keywordsBeforeRegex = /(?:^|[^\w$])(?:return|typeof|case|do|else|in|of|void|yield|await)$/

export const commentsOf = (source: string): Array<Comment> => {
  const comments: Array<Comment> = []
  let line = 1
  let previous = "" // the last significant character outside comments and whitespace
  let i = 0
  const advance = (to: number) => {
    for (let k = i; k < to; k++) if (source[k] === "\n") line++
    i = to
  }
  const skipQuoted = (quote: string) => {
    let k = i + 1
    while (k < source.length && source[k] !== quote && source[k] !== "\n") k += source[k] === "\\" ? 2 : 1
    advance(k + 1)
  }
  const skipTemplate = () => {
    let k = i + 1
    while (k < source.length && source[k] !== "`") k += source[k] === "\\" ? 2 : 1
    advance(k + 1)
  }
  const skipRegex = () => {
    let k = i + 1
    let inClass = false
    while (k < source.length && source[k] !== "\n") {
      const c = source[k]
      if (c === "\\") k++
      else if (c === "[") inClass = true
      else if (c === "]") inClass = false
      else if (c === "/" && !inClass) break
      k++
    }
    advance(k + 1)
  }
  while (i < source.length) {
    const c = source[i] ?? ""
    const next = source[i + 1]
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i)
      const to = end === -1 ? source.length : end
      comments.push({ line, text: source.slice(i + 2, to) })
      advance(to)
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2)
      const to = end === -1 ? source.length : end + 2
      comments.push({ line, text: source.slice(i + 2, end === -1 ? to : end) })
      advance(to)
    } else if (c === '"' || c === "'") {
      skipQuoted(c)
      previous = c
    } else if (c === "`") {
      skipTemplate()
      previous = c
    } else if (
      c === "/" &&
      (beforeRegex.has(previous) || keywordsBeforeRegex.test(source.slice(Math.max(0, i - 8), i).trimEnd()))
    ) {
      skipRegex()
      previous = "/"
    } else {
      if (!/\s/.test(c)) previous = c
      advance(i + 1)
    }
  }
  return comments
}
