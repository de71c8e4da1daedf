/**
 * Commit subjects a log can show: `git log --oneline`, blame and review
 * tools cut a subject past about 72 characters, and a subject without its
 * area cannot be scanned for the part it changed. Every commit after the
 * base (the last one written before the rule) that is not a merge is held
 * to it; the older history is left as it was written.
 */
import { execFileSync } from "node:child_process"
import { realpathSync } from "node:fs"

/** The last commit before the rule: the commits after it are checked. */
export const ruleBase = "aac48ee0668aa2c7ae662bf05282bf3b7748efc9"

export const subjectMaxChars = 72

/** `area: what changed`, the area a project or folder (`gateway`, `libs/kernel`, `@mizan/audit`), optionally scoped: `docs(api): ...`. */
export const subjectPattern = /^[A-Za-z0-9@._/-]+(\([^)]*\))?: .+/

export interface CommitCheck {
  /** Why the commits were not checked, when they were not (no history, a shallow clone). */
  readonly skipped?: string
  readonly checked: number
  readonly problems: ReadonlyArray<string>
}

/** What is wrong with one subject, in a sentence; none when it is fine. Characters are counted as a reader sees them (code points). */
export const subjectProblems = (subject: string): Array<string> => {
  const problems: Array<string> = []
  const length = [...subject].length
  if (length > subjectMaxChars) problems.push(`its subject is ${length} characters, more than ${subjectMaxChars}`)
  if (!subjectPattern.test(subject))
    problems.push(`its subject names no area ("area: what changed", e.g. "gateway: ...")`)
  return problems
}

const git = (root: string, args: ReadonlyArray<string>): string =>
  execFileSync("git", ["-C", root, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })

const succeeds = (root: string, args: ReadonlyArray<string>): boolean => {
  try {
    git(root, args)
    return true
  } catch {
    return false
  }
}

/**
 * Whether `root` is the top of a git work tree with a commit: a tarball
 * unpacked inside another repository (a vendor folder, a monorepo) would
 * otherwise be judged by that repository's history.
 */
const hasHistoryOfItsOwn = (root: string): boolean => {
  if (!succeeds(root, ["rev-parse", "--verify", "HEAD"])) return false
  try {
    return realpathSync(git(root, ["rev-parse", "--show-toplevel"]).trim()) === realpathSync(root)
  } catch {
    return false
  }
}

const short = (hash: string): string => hash.slice(0, 10)

/** A subject as a problem quotes it: cut where a log would cut it, so a paragraph-long one stays one readable line. */
const quoted = (subject: string): string => {
  const chars = [...subject]
  return `"${chars.length > subjectMaxChars ? `${chars.slice(0, subjectMaxChars).join("")}...` : subject}"`
}

/** Checks every non-merge commit of `HEAD` after `base`; passes, saying why, where there is no history to read. */
export const commitCheck = (root: string, base: string = ruleBase): CommitCheck => {
  if (!hasHistoryOfItsOwn(root))
    return { skipped: "no git history here (a tarball?): commit subjects not checked", checked: 0, problems: [] }
  if (!succeeds(root, ["cat-file", "-e", `${base}^{commit}`])) {
    if (git(root, ["rev-parse", "--is-shallow-repository"]).trim() === "true")
      return {
        skipped: `a shallow clone without the base commit ${short(base)}: commit subjects not checked (clone the whole history to check them)`,
        checked: 0,
        problems: [],
      }
    return {
      checked: 0,
      problems: [`the base commit ${short(base)} is not in this history: the commits after it cannot be found`],
    }
  }
  // %s is the subject as `git log --oneline` shows it (a first paragraph of several lines joined by spaces).
  const log = git(root, ["log", "--no-merges", "--format=%H%x00%s", `${base}..HEAD`])
  const commits = log
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const [hash = "", subject = ""] = line.split("\0")
      return { hash, subject }
    })
  const problems = commits.flatMap(({ hash, subject }) =>
    subjectProblems(subject).map((problem) => `${short(hash)} ${quoted(subject)}: ${problem}`),
  )
  return { checked: commits.length, problems }
}
