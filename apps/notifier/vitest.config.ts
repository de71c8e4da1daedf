import { defineConfig, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.ts"

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      // Some tests start this package's command as a process of its own: a busy machine needs more than 5 s for that.
      testTimeout: 30_000,
    },
  }),
)
