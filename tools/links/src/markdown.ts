/**
 * What a Markdown file points at and what it can be pointed at: its links
 * `[text](target)` outside code, and the anchors its headings make, as
 * GitHub makes them.
 */

export interface Link {
  readonly line: number
  readonly target: string
}

/** The lines that are prose: those of fenced code blocks are blanked, so that their line numbers stay. */
export const proseLines = (markdown: string): Array<string> => {
  let fence: string | undefined
  return markdown.split("\n").map((text) => {
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(text)?.[1]
    if (fence === undefined && opening !== undefined) {
      fence = opening
      return ""
    }
    if (fence !== undefined) {
      if (text.trim().startsWith(fence)) fence = undefined
      return ""
    }
    return text
  })
}

/** A line without its inline code spans: a link written as code is an example, not a link. */
export const withoutCodeSpans = (line: string): string =>
  line.replace(/(`+)[^`]*?\1/g, (span) => " ".repeat(span.length))

const linkPattern = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g

export const linksOf = (markdown: string): Array<Link> =>
  proseLines(markdown).flatMap((text, index) =>
    [...withoutCodeSpans(text).matchAll(linkPattern)].map((m) => ({ line: index + 1, target: m[1] ?? "" })),
  )

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export const slugOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-")

/** Every anchor of a Markdown file; a repeated heading's anchor takes `-1`, `-2`, ... as on GitHub. */
export const anchorsOf = (markdown: string): Set<string> => {
  const anchors = new Set<string>()
  for (const text of proseLines(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1]
    if (heading === undefined) continue
    const slug = slugOf(heading)
    let anchor = slug
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`
    anchors.add(anchor)
  }
  return anchors
}
