import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    // One PostgreSQL server for every test file of this lib; each test opens its own schema on it.
    globalSetup: ["./test/globalSetup.ts"],
    hookTimeout: 60_000,
  },
})
