/**
 * The Vitest configuration of the mutation runs: each domain lib's own
 * tests, run from the lib's folder (Stryker's sandbox of it), with every
 * property on the fixed seed of fixedSeed.ts, and `@mizan/*` resolved to
 * their sources as in every workspace test (vitest.shared.ts). `npm test`
 * never reads it.
 */
import { fileURLToPath } from "node:url"
import { defineConfig, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.ts"

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      root: process.cwd(),
      include: ["test/**/*.spec.ts"],
      setupFiles: [fileURLToPath(new URL("./fixedSeed.ts", import.meta.url))],
      // Each file isolated, as the scores in CONTRIBUTING.md were measured
      // (npm test shares a worker's modules among its files).
      isolate: true,
    },
  }),
)
