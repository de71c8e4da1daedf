import type { TestProject } from "vitest/node"
import { startEmbeddedPostgres, testServerSettings } from "../src/testing/index.ts"

declare module "vitest" {
  export interface ProvidedContext {
    readonly postgresUrl: string
  }
}

export default async function setup(project: TestProject) {
  const server = await startEmbeddedPostgres({ settings: testServerSettings })
  project.provide("postgresUrl", server.connectionString)
  return server.stop
}
