import { defineConfig, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.ts"

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      // Many tests start real processes (the service, the tools, PostgreSQL): on a busy 2-core machine that takes seconds.
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  }),
)
