/** The generator's command line as a person runs it (a child process): a history written, and the refusals. */
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const mainPath = join(import.meta.dirname, "..", "src", "main.ts")
const dir = mkdtempSync(join(tmpdir(), "mizan-histories-cli-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const run = (args: ReadonlyArray<string>) =>
  new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>((done) =>
    // Started from `dir`: npm scripts name that folder in INIT_CWD, which the tool reads first.
    execFile(
      process.execPath,
      [mainPath, ...args],
      { cwd: dir, env: { ...process.env, INIT_CWD: dir } },
      (error, stdout, stderr) =>
        done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr }),
    ),
  )

describe("histories on the command line", () => {
  it("writes a history of the size asked into an empty store, and refuses to write a second into it", async () => {
    const written = await run(["--seed", "7", "--events", "200", "--store", "sqlite:h.db"])
    expect(written.code).toBe(0)
    expect(existsSync(join(dir, "h.db"))).toBe(true)
    expect(JSON.parse(written.stdout)).toMatchObject({ seed: 7, events: 200 })
    const again = await run(["--seed", "7", "--events", "200", "--store", "sqlite:h.db"])
    expect(again.code).toBe(2)
    expect(again.stderr).toContain("already holds events")
  })

  it("says which argument is missing or wrong, with the usage, and exits 2", async () => {
    const usage = "usage: histories --seed N --events N --store sqlite:PATH [--start ISO-DATE-TIME]"
    for (const [args, first] of [
      [[], "--seed is required"],
      [["--seed", "1"], "--events is required"],
      [["--seed", "x", "--events", "1"], "--seed must be a whole number"],
      [["--seed", "1", "--events", "1", "--store", "postgres://db/x"], "only sqlite:PATH stores"],
    ] as const) {
      const refused = await run(args)
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain(first)
      expect(refused.stderr).toContain(usage)
    }
  })

  it("answers --help with the usage and 0, and an unknown option in one line and 2", { timeout: 30_000 }, async () => {
    const help = await run(["--help"])
    expect([help.code, help.stdout, help.stderr]).toEqual([
      0,
      "usage: histories --seed N --events N --store sqlite:PATH [--start ISO-DATE-TIME]\n",
      "",
    ])
    const unknown = await run(["--seed", "1", "--events", "1", "--colour", "red"])
    expect([unknown.code, unknown.stderr]).toEqual([2, "histories: unknown option --colour; --help for usage\n"])
  })
})
