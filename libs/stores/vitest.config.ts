import { defineConfig, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.ts"

export default mergeConfig(
  shared,
  defineConfig({
    // keyTable.spec.ts mocks node:fs (vi.mock), which holds only for a file
    // whose modules are loaded afresh: this project's files keep isolation.
    test: { isolate: true },
  }),
)
