/** The service as separate processes (`main.ts`), for the crash and multi-process tests. */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { type MerchantClient, makeMerchantClient } from "@mizan/merchant-client"
import { Effect } from "effect"
import type { GatewayConfig } from "../src/config/config.ts"
import { merchantKeys } from "./harness.ts"

const mainScript = join(import.meta.dirname, "..", "src", "startup", "main.ts")

export interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs a script to its end. Asynchronously: the gateway a tool talks to runs in this process. */
export const runScript = (script: string, args: ReadonlyArray<string>, cwd: string, extraEnv: NodeJS.ProcessEnv = {}) =>
  new Promise<Run>((done) => {
    const { MIZAN_CONFIG: _, PORT: __, HOST: ___, ...env } = process.env
    execFile(process.execPath, [script, ...args], { cwd, env: { ...env, ...extraEnv } }, (error, stdout, stderr) =>
      done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr }),
    )
  })

export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

/** Writes `config` as `config.json` in `dataDir`, for a service process to start on; answers its path. */
export const writeConfig = (dataDir: string, config: GatewayConfig): string => {
  const configPath = join(dataDir, "config.json")
  writeFileSync(configPath, JSON.stringify(config))
  return configPath
}

export interface ServiceProcessOptions {
  /** More environment (an OpenTelemetry collector, say). */
  readonly env?: Readonly<Record<string, string>>
  /** Receives every line the service writes to stdout (its log); stdout is ignored otherwise. */
  readonly onLine?: (line: string) => void
  /** The user and group the service runs as (a test run as root gives file permissions meaning so); this process's own otherwise. */
  readonly user?: { readonly uid: number; readonly gid: number }
}

/** Starts `main.ts` on a configuration file and waits until it answers on `port`. */
export const startService = async (
  configPath: string,
  port: number,
  options: ServiceProcessOptions = {},
): Promise<ChildProcess> => {
  const child = spawn(process.execPath, [mainScript], {
    env: { ...process.env, MIZAN_CONFIG: configPath, PORT: String(port), ...options.env },
    stdio: ["ignore", options.onLine === undefined ? "ignore" : "pipe", "pipe"],
    ...options.user,
  })
  const { onLine } = options
  if (onLine !== undefined && child.stdout !== null) {
    let partial = ""
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      const lines = (partial + text).split("\n")
      partial = lines.pop() ?? ""
      for (const line of lines) onLine(line)
    })
  }
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`)
    const up = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) return child
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  child.kill("SIGKILL")
  throw new Error("the service did not start")
}

export const stopService = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once("exit", resolve))
  child.kill("SIGKILL")
  await exited
}

/** A merchant client of a service whose key files live in `dataDir`. */
export const clientOf = (dataDir: string, port: number, partnerId = "M1"): MerchantClient =>
  makeMerchantClient({
    baseUrl: `http://127.0.0.1:${port}`,
    partnerId,
    merchantPrivateKeyPem: merchantKeys(partnerId).privateKeyPem,
    servicePublicKeyPem: readFileSync(join(dataDir, "service-public.pem"), "utf8"),
    requestTimeoutMs: 5_000,
  })

export const call = <A>(effect: Effect.Effect<A, unknown>) => Effect.runPromise(effect)

const auditScript = join(import.meta.dirname, "..", "..", "audit", "src", "main.ts")

/**
 * `mizan-audit replay --json` on `store`, as an operator runs it, with the
 * master key file the service made in `dataDir` (beside its configuration):
 * its exit code, stdout and stderr.
 */
export const auditReplay = (store: string, dataDir: string) =>
  new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>((done) =>
    execFile(
      process.execPath,
      [auditScript, "replay", "--json", "--store", store, "--master-key-file", join(dataDir, "master-keys.json")],
      (error, stdout, stderr) => done({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    ),
  )
