/** `npm run postgres` as a person runs it: a child process that starts, answers, keeps its data and stops on Ctrl-C. */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"

const mainPath = join(import.meta.dirname, "..", "src", "main.ts")
const folder = mkdtempSync(join(tmpdir(), "mizan-postgres-dev-"))
// As root the server runs as the `postgres` user, who must reach the data directory through this folder.
chmodSync(folder, 0o755)
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

/** Starts the tool and answers the connection string it prints. */
const start = (port: number): Promise<{ child: ChildProcess; url: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [mainPath, "--data", join(folder, "data"), "--port", String(port)], {
      env: { ...process.env, INIT_CWD: folder },
    })
    let output = ""
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const url = /postgres:\/\/\S+/.exec(output)?.[0]
      if (url !== undefined) resolve({ child, url })
    })
    child.once("exit", (code) => reject(new Error(`exited with ${code} before it answered: ${output}`)))
  })

const interrupt = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.once("exit", (code) => resolve(code))
    child.kill("SIGINT")
  })

const query = async (url: string, text: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text)).rows
  } finally {
    await client.end()
  }
}

describe("npm run postgres", () => {
  it("starts a durable server whose mizan database keeps its data between runs, and stops cleanly on Ctrl-C", {
    timeout: 120_000,
  }, async () => {
    const port = await freePort()
    const first = await start(port)
    expect(first.url).toBe(`postgres://postgres:mizan@127.0.0.1:${port}/mizan`)
    await query(first.url, "CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)")
    expect(await interrupt(first.child)).toBe(0)

    const second = await start(port)
    try {
      expect(await query(second.url, "SELECT n FROM kept")).toEqual([{ n: 42 }])
      // Durable commits, set by name at the start rather than left to whatever configuration the server reads.
      expect(
        await query(
          second.url,
          "SELECT name, setting, source FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit') ORDER BY name",
        ),
      ).toEqual([
        { name: "fsync", setting: "on", source: "command line" },
        { name: "synchronous_commit", setting: "on", source: "command line" },
      ])
    } finally {
      expect(await interrupt(second.child)).toBe(0)
    }
  })

  it("answers --help with its usage and 0, and an unknown option in one line and 2", { timeout: 30_000 }, async () => {
    const run = (args: ReadonlyArray<string>) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
        execFile(process.execPath, [mainPath, ...args], (error, stdout, stderr) =>
          done({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
        ),
      )
    const help = await run(["--help"])
    expect([help.code, help.stdout.startsWith("usage: npm run postgres")]).toEqual([0, true])
    expect(await run(["--nonsense"])).toMatchObject({
      code: 2,
      stderr: "postgres: unknown option --nonsense; --help for usage\n",
    })
  })
})
