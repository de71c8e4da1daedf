/**
 * The repository paths a piece of prose names: paths from the repository's
 * root (`docs/api.md#errors`, `libs/kernel/src/codes.ts`, `apps/gateway`),
 * paths relative to the file (`../README.md`), and Markdown files by name
 * (`CONTRIBUTING.md`). Globs and placeholders (`libs/*`, `libs/<name>`) are
 * patterns, not paths, and are not taken.
 */

export interface PathMention {
  /** The path as written, without its anchor. */
  readonly path: string
  readonly anchor: string | undefined
  /** Whether the path is from the repository's root, rather than from the file or its package. */
  readonly fromRoot: boolean
}

const rootFolders = ["libs", "apps", "tools", "docs"]
const segment = String.raw`[\w.-]*\w`
const anchor = String.raw`(?:#([\w-]+))?`
const fromRootPattern = new RegExp(
  String.raw`(?<![\w@./-])((?:${rootFolders.join("|")})(?:/${segment})+)/?${anchor}(?![\w*<])`,
  "g",
)
const relativePattern = new RegExp(
  String.raw`(?<![\w@./-])(\.{1,2}/(?:${segment}/)*${segment})${anchor}(?![\w*<])`,
  "g",
)
const markdownNamePattern = new RegExp(
  String.raw`(?<![\w@./-])((?:${segment}/)*${segment}\.md)${anchor}(?![\w*<])`,
  "g",
)

export const pathsIn = (text: string): Array<PathMention> => {
  const mentions = new Map<string, PathMention>()
  const take = (pattern: RegExp, fromRoot: boolean) => {
    for (const m of text.matchAll(pattern)) {
      const path = m[1] ?? ""
      if (!mentions.has(path)) mentions.set(path, { path, anchor: m[2], fromRoot })
    }
  }
  take(fromRootPattern, true)
  take(relativePattern, false)
  take(markdownNamePattern, false)
  return [...mentions.values()]
}
