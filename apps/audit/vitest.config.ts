import { defineConfig, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.ts"

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      // The command line compiles schema decoders (src/main.ts); the tests run the same way.
      setupFiles: ["./test/setup.ts"],
      // The PostgreSQL round trip starts an embedded server (about a second, more on a busy machine).
      hookTimeout: 60_000,
      testTimeout: 30_000,
    },
  }),
)
