import { defineConfig, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.ts"

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      // Many tests start real processes (the service, the tools, PostgreSQL): on a busy 2-core machine that takes seconds.
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // Two files at a time, where vitest's default is one fewer than the cores (one, on 2 cores): the files mostly
      // wait on the processes they start, and this suite, the longest, ends npm test alone, with a core idle.
      // 303 s against 486 s on a 2-core machine.
      maxWorkers: 2,
    },
  }),
)
