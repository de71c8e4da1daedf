/**
 * The embedding guide and the example agree: `examples/platform-service`'s
 * package.json is what a project of one's own gets from the guide's lines
 * (its README), so that `npm run test:examples`, which installs the
 * example, proves those very lines on a fresh machine. The guide's
 * `npm install` commands (in its ```sh blocks) name the dependencies, with
 * `--save-dev` the dev dependencies, and its ```json package.json blocks
 * the settings (`type`, `engines`, `allowScripts`). A tarball installed by
 * path beside the project (`./<tarball>`) is the example's
 * `file:../../dist/<tarball>`, in the packed libs' folder.
 */
import { isDeepStrictEqual } from "node:util"

export interface Guide {
  readonly dependencies: Readonly<Record<string, string>>
  readonly devDependencies: Readonly<Record<string, string>>
  readonly settings: Readonly<Record<string, unknown>>
}

interface Block {
  readonly info: string
  readonly text: string
}

/** The fenced code blocks of a Markdown text, indented ones (in a list) too, with their info strings. */
const blocksOf = (markdown: string): Array<Block> =>
  [...markdown.matchAll(/^( *)```([^\n`]*)\n([\s\S]*?)^\1```\s*$/gm)].map((m) => ({
    info: (m[2] ?? "").trim(),
    text: (m[3] ?? "").replace(new RegExp(`^${m[1]}`, "gm"), ""),
  }))

/** A tarball by path (`./<tarball>`) as the example names it; `name@version` split at the version's `@`. */
const dependencyOf = (word: string): [string, string] => {
  const tarball = /^\.\/(mizan-(.+)-\d+\.\d+\.\d+[^/]*\.tgz)$/.exec(word)
  if (tarball !== null) return [`@mizan/${tarball[2]}`, `file:../../dist/${tarball[1]}`]
  const at = word.lastIndexOf("@")
  if (at <= 0) throw new Error(`the guide installs ${word} without a version: pin it, as the example does`)
  return [word.slice(0, at), word.slice(at + 1)]
}

/** What the guide's lines make of a project: its dependencies, dev dependencies and settings. */
export const guideOf = (readme: string): Guide => {
  const dependencies: Record<string, string> = {}
  const devDependencies: Record<string, string> = {}
  let settings: Record<string, unknown> = {}
  for (const block of blocksOf(readme)) {
    if (block.info === "json package.json") settings = { ...settings, ...JSON.parse(block.text) }
    if (block.info !== "sh") continue
    for (const line of block.text.replace(/\\\n/g, " ").split("\n")) {
      const words = line.replace(/#.*$/, "").trim().split(/\s+/)
      if (words[0] !== "npm" || words[1] !== "install") continue
      const dev = words.includes("--save-dev") || words.includes("-D")
      for (const word of words.slice(2).filter((w) => !w.startsWith("-"))) {
        const [name, spec] = dependencyOf(word)
        ;(dev ? devDependencies : dependencies)[name] = spec
      }
    }
  }
  return { dependencies, devDependencies, settings }
}

/** How a manifest's table differs from the guide's, one sentence each. */
const tableDifferences = (
  table: "dependencies" | "devDependencies",
  guide: Readonly<Record<string, string>>,
  manifest: Readonly<Record<string, string>>,
): Array<string> => [
  ...Object.entries(guide).flatMap(([name, spec]) =>
    manifest[name] === spec ? [] : [`the guide installs ${name} ${spec}; ${table} has ${manifest[name] ?? "none"}`],
  ),
  ...Object.keys(manifest)
    .filter((name) => guide[name] === undefined)
    .map((name) => `${table} has ${name}, which the guide never installs`),
]

/** Every way the example's package.json differs from what the guide makes; empty when they agree. */
export const guideDisagreements = (guide: Guide, manifest: Readonly<Record<string, unknown>>): Array<string> => [
  ...tableDifferences("dependencies", guide.dependencies, (manifest.dependencies ?? {}) as Record<string, string>),
  ...tableDifferences(
    "devDependencies",
    guide.devDependencies,
    (manifest.devDependencies ?? {}) as Record<string, string>,
  ),
  ...Object.entries(guide.settings).flatMap(([key, value]) =>
    isDeepStrictEqual(manifest[key], value)
      ? []
      : [`the guide sets ${key} to ${JSON.stringify(value)}; package.json has ${JSON.stringify(manifest[key])}`],
  ),
]

/** Throws, naming each disagreement, when an example's package.json is not what its guide's lines make. */
export const checkGuide = (readme: string, manifest: Readonly<Record<string, unknown>>): void => {
  const problems = guideDisagreements(guideOf(readme), manifest)
  if (problems.length > 0)
    throw new Error(`The embedding guide and the example's package.json disagree:\n  ${problems.join("\n  ")}`)
}
