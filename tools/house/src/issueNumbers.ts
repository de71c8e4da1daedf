/**
 * Issue numbers in prose: a reader of the repository cannot follow
 * `issue 19` or `#19` (the tracker is not part of it), so a doc or comment
 * says what the thing is instead. Precise enough for code: `#f5c400` (a
 * colour starting with a letter), `"#43"` (a quoted fiber id), `a#1` or
 * anything inside a code span does not count; a colour of digits only is
 * written as code (`#000000`).
 */
import { withoutCodeSpans } from "@mizan/links/src/markdown.ts"

const issuePatterns: ReadonlyArray<RegExp> = [
  // `issue 19`, `Issues 15 and 19`, `issue #36`
  /\b[Ii]ssues? #?\d+(?:(?:,| and|, and| or) #?\d+)*\b/g,
  // a bare `#19` (not the one of `issue #36`, found above) after a space, a bracket or punctuation, never inside a word, a quote or a path
  /(?<=^|[\s([{,;:])(?<![Ii]ssues? )#\d+(?![\w-])/g,
]

/** The issue numbers a line of prose names, as written. */
export const issueNumbersIn = (line: string): Array<string> => {
  const prose = withoutCodeSpans(line)
  return issuePatterns.flatMap((pattern) => [...prose.matchAll(pattern)].map((m) => m[0]))
}
