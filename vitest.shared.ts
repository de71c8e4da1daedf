/**
 * What every project's vitest.config.ts starts from: `@mizan/*` imports resolve
 * to the packages' TypeScript sources (the `@mizan/source` export condition,
 * CONTRIBUTING.md "Packages"), so tests never need a build. Vitest passes the
 * same conditions to its workers as `--conditions`, for what Node loads itself.
 */
import { join } from "node:path"
import { defineConfig } from "vitest/config"

/**
 * Node's compile cache for every process a test starts (the service, the
 * notifier, the audit's command line): each loads the same TypeScript
 * sources, which Node then compiles once per run, not once per process. A
 * command-line start took 1.3 s with it and 2.2 s without on a slow 2-core
 * machine. Node checks each entry against its file, so an edited source is
 * compiled afresh. Set here, in the process that starts the test workers,
 * whose children inherit it; a value already set is kept.
 */
process.env.NODE_COMPILE_CACHE ??= join(import.meta.dirname, "node_modules", ".cache", "node-compile")

const conditions = ["@mizan/source", "module", "development|production"]

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    // A worker loads effect and the libraries once for all its files, where
    // isolation loaded them again for each file: most of a pure lib's test
    // time (the acquiring tests 18 s isolated, 4 s not; every project's
    // tests 4.5 minutes on 2 cores, about 8 isolated). The tests keep no
    // state in modules that another file could see; a project whose tests
    // mock a module (vi.mock) keeps isolation (libs/stores).
    isolate: false,
  },
})
