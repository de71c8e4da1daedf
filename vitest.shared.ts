/**
 * What every project's vitest.config.ts starts from: `@mizan/*` imports resolve
 * to the packages' TypeScript sources (the `@mizan/source` export condition,
 * CONTRIBUTING.md "Packages"), so tests never need a build. Vitest passes the
 * same conditions to its workers as `--conditions`, for what Node loads itself.
 */
import { defineConfig } from "vitest/config"

const conditions = ["@mizan/source", "module", "development|production"]

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
})
