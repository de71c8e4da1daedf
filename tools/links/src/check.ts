/**
 * The link check of `npm test`: every relative Markdown link, and every
 * repository path that Markdown prose or a source comment names, must exist
 * in the repository, and an anchor on a Markdown file must be one of its
 * headings. Links to other sites (`https:`, `mailto:`) are not followed.
 */
import { existsSync, readFileSync, statSync } from "node:fs"
import { dirname, join, normalize, relative } from "node:path"
import { commentsOf } from "./comments.ts"
import { repositoryFiles, sourcePattern } from "./files.ts"
import { anchorsOf, linksOf, proseLines } from "./markdown.ts"
import { pathsIn } from "./paths.ts"

/** One thing named, where it was named, and where to look for it. */
interface Mention {
  readonly file: string
  readonly line: number
  readonly target: string
  readonly anchor: string | undefined
  /** Folders (relative to the root) that the target may be relative to, first match wins. */
  readonly bases: ReadonlyArray<string>
}

export const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")

/** The package folder holding `file` (the nearest folder with a package.json), or the root. */
const packageOf = (root: string, file: string): string => {
  for (let dir = dirname(file); dir !== "." && dir !== ""; dir = dirname(dir))
    if (existsSync(join(root, dir, "package.json"))) return dir
  return "."
}

const splitAnchor = (target: string): [string, string | undefined] => {
  const hash = target.indexOf("#")
  return hash === -1 ? [target, undefined] : [target.slice(0, hash), target.slice(hash + 1)]
}

const markdownMentions = (root: string, file: string, text: string): Array<Mention> => {
  const here = dirname(file)
  const links = linksOf(text)
    .filter((link) => !isExternal(link.target))
    .map((link) => {
      const [path, anchor] = splitAnchor(decodeURI(link.target))
      return { file, line: link.line, target: path === "" ? file : join(here, path), anchor, bases: ["."] }
    })
  return [...links, ...proseMentions(root, file, proseLines(text).map(withoutLinks))]
}

/** Link targets are checked as links; what remains of the line is prose. */
const withoutLinks = (line: string): string => line.replace(/\]\([^)]*\)/g, "]")

const proseMentions = (root: string, file: string, lines: ReadonlyArray<string>): Array<Mention> => {
  const relativeBases = [dirname(file), packageOf(root, file), "."]
  return lines.flatMap((text, index) =>
    pathsIn(text).map((mention) => ({
      file,
      line: index + 1,
      target: mention.path,
      anchor: mention.anchor,
      bases: mention.fromRoot ? ["."] : relativeBases,
    })),
  )
}

const sourceMentions = (root: string, file: string, text: string): Array<Mention> =>
  commentsOf(text).flatMap((comment) =>
    proseMentions(root, file, comment.text.split("\n")).map((mention) => ({
      ...mention,
      line: comment.line + mention.line - 1,
    })),
  )

/** What is wrong with one mention, or undefined when it holds. */
const problemOf = (root: string, mention: Mention, anchorsIn: (file: string) => Set<string>): string | undefined => {
  const where = `${mention.file}:${mention.line}`
  const found = mention.bases
    .map((base) => normalize(join(base, mention.target)))
    .find((path) => existsSync(join(root, path)))
  if (found === undefined || relative(root, join(root, found)).startsWith(".."))
    return `${where}: ${mention.target} does not exist in the repository`
  if (mention.anchor === undefined || mention.anchor === "" || !found.endsWith(".md")) return undefined
  if (statSync(join(root, found)).isDirectory() || anchorsIn(found).has(mention.anchor)) return undefined
  return `${where}: ${found} has no heading for #${mention.anchor}`
}

/** Every broken link or path of the repository at `root`, one line each: `file:line: what`. */
export const linkProblems = (root: string): Array<string> => {
  const anchors = new Map<string, Set<string>>()
  const anchorsIn = (file: string): Set<string> => {
    const known = anchors.get(file)
    if (known !== undefined) return known
    const found = anchorsOf(readFileSync(join(root, file), "utf8"))
    anchors.set(file, found)
    return found
  }
  return repositoryFiles(root)
    .sort()
    .flatMap((file) => {
      const text = readFileSync(join(root, file), "utf8")
      return sourcePattern.test(file) ? sourceMentions(root, file, text) : markdownMentions(root, file, text)
    })
    .flatMap((mention) => problemOf(root, mention, anchorsIn) ?? [])
}
