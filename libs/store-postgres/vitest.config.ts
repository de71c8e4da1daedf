import { defineConfig, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.ts"

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      // One PostgreSQL server for every test file of this lib; each test opens its own schema on it.
      globalSetup: ["./test/globalSetup.ts"],
      hookTimeout: 60_000,
    },
  }),
)
