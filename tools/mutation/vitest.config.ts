/**
 * The Vitest configuration of the mutation runs: each domain lib's own
 * tests, run from the lib's folder (Stryker's sandbox of it), with every
 * property on the fixed seed of fixedSeed.ts. `npm test` never reads it.
 */
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    root: process.cwd(),
    include: ["test/**/*.spec.ts"],
    setupFiles: [fileURLToPath(new URL("./fixedSeed.ts", import.meta.url))],
  },
})
