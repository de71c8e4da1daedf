/**
 * Docs a reader can finish: a README is a reference (what the part is for,
 * how to use it, its design and its current figures), not a lab notebook,
 * and git keeps the journal. So no Markdown file is longer than
 * `markdownMaxLines` (but the generated ones), a decision record says its
 * question, figures and choice within `decisionMaxLines`, the benchmarks'
 * page within `benchReadmeMaxLines`, and no doc or comment names an issue
 * number.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { commentsOf } from "@mizan/links/src/comments.ts"
import { markdownPattern, repositoryFiles, sourcePattern } from "@mizan/links/src/files.ts"
import { proseLines } from "@mizan/links/src/markdown.ts"
import { issueNumbersIn } from "./issueNumbers.ts"

export const markdownMaxLines = 400
export const decisionMaxLines = 80
export const benchReadmeMaxLines = 250

/** Markdown files with no length limit, each with the reason. */
export const lengthExemptions: ReadonlyMap<string, string> = new Map([
  ["docs/api.md", "written from the code by npm run api-doc: one table per operation, code and helper"],
])

/** A decision record: `docs/decisions/<number>-<title>.md`, numbered from 0001 (the folder's README is its index, held to the general limit). */
const decisionRecord = /^docs\/decisions\/\d{4}-[^/]+\.md$/

/** The most lines a Markdown file may have, or none. */
export const maxLinesOf = (path: string): number | undefined => {
  if (lengthExemptions.has(path)) return undefined
  if (decisionRecord.test(path)) return decisionMaxLines
  if (path === "tools/bench/README.md") return benchReadmeMaxLines
  return markdownMaxLines
}

/** Lines as an editor counts them: a final newline ends the last line rather than starting one. */
const lineCount = (text: string): number => (text === "" ? 0 : text.replace(/\n$/, "").split("\n").length)

const lengthProblems = (path: string, text: string): Array<string> => {
  const max = maxLinesOf(path)
  const lines = lineCount(text)
  if (max === undefined || lines <= max) return []
  return [
    `${path}: ${lines} lines, more than ${max}: keep the reference, move the journal to git (or a decision record)`,
  ]
}

const issueProblems = (path: string, lines: ReadonlyArray<{ readonly line: number; readonly text: string }>) =>
  lines.flatMap(({ line, text }) =>
    issueNumbersIn(text).map(
      (found) =>
        `${path}:${line}: names an issue number ("${found}"): say what it is, the tracker is not in the repository`,
    ),
  )

/** The lines of prose of a file: a Markdown file's outside code blocks, a source's comments (a block comment's lines each). */
const proseOf = (path: string, text: string): Array<{ line: number; text: string }> => {
  if (markdownPattern.test(path)) return proseLines(text).map((line, index) => ({ line: index + 1, text: line }))
  return commentsOf(text).flatMap((comment) =>
    comment.text.split("\n").map((line, index) => ({ line: comment.line + index, text: line })),
  )
}

/** Every Markdown file too long and every issue number in a Markdown file or a source comment under `root`, one line each. */
export const docsProblems = (root: string): Array<string> =>
  repositoryFiles(root)
    .sort()
    .flatMap((path) => {
      const text = readFileSync(join(root, path), "utf8")
      const lengths = markdownPattern.test(path) ? lengthProblems(path, text) : []
      const prose = markdownPattern.test(path) || sourcePattern.test(path) ? proseOf(path, text) : []
      return [...lengths, ...issueProblems(path, prose)]
    })
