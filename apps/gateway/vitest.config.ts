import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    // Many tests start real processes (the service, the tools, PostgreSQL): on a busy 2-core machine that takes seconds.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
