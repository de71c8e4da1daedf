import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { commitCheck, subjectProblems } from "../src/commits.ts"

// A fixed identity and dates, so the test repository needs no git configuration of the machine's.
const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.com",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.com",
  GIT_AUTHOR_DATE: "2026-12-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-12-01T00:00:00Z",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
}

const git = (dir: string, ...args: Array<string>): string =>
  execFileSync("git", ["-C", dir, ...args], { encoding: "utf8", env: gitEnv, stdio: ["ignore", "pipe", "pipe"] }).trim()

const newRepository = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "house-commits-"))
  git(dir, "init", "--quiet", "--initial-branch=main")
  return dir
}

let fileNumber = 0
/** A commit that changes a file, with `message` (its first line the subject); answers its hash. */
const commit = (dir: string, message: string): string => {
  writeFileSync(join(dir, `file${fileNumber++}.txt`), message)
  git(dir, "add", "--all")
  git(dir, "commit", "--quiet", "--message", message)
  return git(dir, "rev-parse", "HEAD")
}

const paragraph =
  "The gateway signs its answers off the event loop, in a pool of worker threads, because RSA-2048 signing took most of the loop's time"

describe("a commit subject", () => {
  it("is taken as area: what changed within 72 characters, scoped or not", () => {
    expect(subjectProblems("gateway: sign answers off the event loop")).toEqual([])
    expect(subjectProblems("libs/kernel: withoutUndefined moves to the kernel")).toEqual([])
    expect(subjectProblems("@mizan/audit: replay in folders by job")).toEqual([])
    expect(subjectProblems("docs(api): the bank transfer's arrival time")).toEqual([])
    expect(subjectProblems(`docs: ${"x".repeat(66)}`)).toEqual([])
  })

  it("is refused past 72 characters, counted as characters rather than bytes", () => {
    expect(subjectProblems(`docs: ${"x".repeat(67)}`)).toEqual(["its subject is 73 characters, more than 72"])
    expect(subjectProblems(`docs: ${"é".repeat(66)}`)).toEqual([])
  })

  it("is refused without an area, or with a sentence where the area goes", () => {
    const noArea = `its subject names no area ("area: what changed", e.g. "gateway: ...")`
    expect(subjectProblems("Sign answers off the event loop")).toEqual([noArea])
    expect(subjectProblems("the gateway: signs off the loop")).toEqual([noArea])
    expect(subjectProblems("gateway:signs off the loop")).toEqual([noArea])
    expect(subjectProblems("gateway: ")).toEqual([noArea])
  })
})

describe("the commit check", () => {
  it("refuses each commit after the base whose subject is too long or has no area, naming the commit and why", () => {
    const dir = newRepository()
    commit(dir, paragraph) // before the rule: left as written
    const base = commit(dir, "Last commit before the rule, also a long sentence without any area at all in it")
    commit(dir, "tools: the house check\n\nThe why goes in the body, as long as it needs to be.")
    const long = commit(dir, paragraph)
    const noArea = commit(dir, "Fix the pay page")
    const check = commitCheck(dir, base)
    expect(check.checked).toBe(3)
    expect(check.problems).toEqual([
      `${noArea.slice(0, 10)} "Fix the pay page": its subject names no area ("area: what changed", e.g. "gateway: ...")`,
      `${long.slice(0, 10)} "${paragraph.slice(0, 72)}...": its subject is ${paragraph.length} characters, more than 72`,
      `${long.slice(0, 10)} "${paragraph.slice(0, 72)}...": its subject names no area ("area: what changed", e.g. "gateway: ...")`,
    ])
  })

  it("reads a subject as a log shows it: a first paragraph of several lines is one subject", () => {
    const dir = newRepository()
    const base = commit(dir, "base")
    const hash = commit(dir, "gateway: sign off the loop,\nin a pool of worker threads because signing took it\n\nbody")
    const subject = "gateway: sign off the loop, in a pool of worker threads because signing took it"
    expect(commitCheck(dir, base).problems).toEqual([
      `${hash.slice(0, 10)} "${subject.slice(0, 72)}...": its subject is ${subject.length} characters, more than 72`,
    ])
  })

  it("passes merge commits, whatever their subject", () => {
    const dir = newRepository()
    const base = commit(dir, "base")
    git(dir, "checkout", "--quiet", "-b", "topic")
    commit(dir, "docs: a decision record")
    git(dir, "checkout", "--quiet", "main")
    commit(dir, "gateway: a change on main")
    git(dir, "merge", "--quiet", "--no-ff", "--no-edit", "topic")
    expect(git(dir, "log", "-1", "--format=%s")).toBe("Merge branch 'topic'")
    expect(commitCheck(dir, base)).toEqual({ checked: 2, problems: [] })
  })

  it("says so and passes where there is no git history (a tarball)", () => {
    const dir = mkdtempSync(join(tmpdir(), "house-tarball-"))
    expect(commitCheck(dir, "0".repeat(40))).toEqual({
      skipped: "no git history here (a tarball?): commit subjects not checked",
      checked: 0,
      problems: [],
    })
  })

  it("does not judge a tree unpacked inside another repository by that repository's history", () => {
    const outer = newRepository()
    commit(outer, "Some other project's subject, long and without an area, as its house allows it")
    const unpacked = join(outer, "vendor", "mizan")
    mkdirSync(unpacked, { recursive: true })
    expect(commitCheck(unpacked, "0".repeat(40)).skipped).toBe(
      "no git history here (a tarball?): commit subjects not checked",
    )
  })

  it("says so and passes in a shallow clone that lacks the base", () => {
    const origin = newRepository()
    const base = commit(origin, "base")
    commit(origin, "docs: one")
    commit(origin, "docs: two")
    const clone = mkdtempSync(join(tmpdir(), "house-shallow-"))
    git(clone, "clone", "--quiet", "--depth=1", `file://${origin}`, ".")
    expect(commitCheck(clone, base).skipped).toMatch(
      /^a shallow clone without the base commit .*: commit subjects not checked/,
    )
  })

  it("fails, saying why, when the base is not in a whole history", () => {
    const dir = newRepository()
    commit(dir, "docs: one")
    expect(commitCheck(dir, "1".repeat(40)).problems).toEqual([
      "the base commit 1111111111 is not in this history: the commits after it cannot be found",
    ])
  })
})
