import { Writable } from "node:stream"
import { it } from "@effect/vitest"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import { chunkWriter } from "../src/common/writeChunk.ts"

/** A stream whose every write fails as a full disk makes it fail. */
const fullDisk = new Writable({
  write: (_chunk, _encoding, done) =>
    done(Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" })),
})
fullDisk.on("error", () => {})

describe("a chunk writer", () => {
  it.effect("says a write that fails in the file system's words, naming the destination", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(chunkWriter(fullDisk, "the export file out.ndjson (--out)")("{}\n"))
      expect(error.detail).toBe("cannot write the export file out.ndjson (--out): no space left on device")
    }),
  )
})
