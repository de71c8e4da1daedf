import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { exclusiveWorkContract } from "@mizan/eventsourcing/testing"
import { afterAll } from "vitest"
import { sqliteExclusiveWork } from "../src/index.ts"

const folder = mkdtempSync(join(tmpdir(), "mizan-sqlite-exclusive-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

let serial = 0
exclusiveWorkContract("a lock file beside a SQLite store", () => {
  const storePath = join(folder, `store-${++serial}.db`)
  return [sqliteExclusiveWork(storePath, 20), sqliteExclusiveWork(storePath, 20)]
})
