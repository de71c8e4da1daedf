import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { fileErrorReason, fileWriteErrorReason } from "../src/index.ts"

const folder = mkdtempSync(join(tmpdir(), "mizan-file-error-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** The error Node throws doing `work` on `path`. */
const failureOf =
  (work: (path: string) => unknown) =>
  (path: string): unknown => {
    try {
      work(path)
    } catch (error) {
      return error
    }
    throw new Error(`expected ${path} to fail`)
  }

const failureReading = failureOf((path) => readFileSync(path, "utf8"))
const failureWriting = failureOf((path) => writeFileSync(path, "{}"))

/** A denial made by hand: the tests may run as root, whom no file refuses. */
const denied = Object.assign(new Error("EACCES: permission denied, open '/etc/shadow'"), {
  code: "EACCES",
  syscall: "open",
  path: "/etc/shadow",
})

describe("why a file did not read", () => {
  it("says a missing file without Node's code, call and path", () => {
    expect(fileErrorReason(failureReading(join(folder, "absent.json")))).toBe("no such file")
  })

  it("says a folder is a folder", () => {
    expect(fileErrorReason(failureReading(folder))).toBe("is a folder, not a file")
  })

  it("says a file this user may not read is denied", () => {
    expect(fileErrorReason(denied)).toBe("permission denied")
  })

  it("keeps Node's words for another failure, without its code, call and path", () => {
    const file = join(folder, "file.txt")
    writeFileSync(file, "")
    expect(fileErrorReason(failureReading(join(file, "inside.json")))).toBe("not a directory")
  })

  it("keeps the message of an error that is not the file system's", () => {
    expect(fileErrorReason(new Error("the private key is not a readable PEM"))).toBe(
      "the private key is not a readable PEM",
    )
    expect(fileErrorReason("gone")).toBe("gone")
  })
})

describe("why a file was not written", () => {
  it("says a missing folder is missing, not the file it was to make", () => {
    expect(fileWriteErrorReason(failureWriting(join(folder, "absent", "out.ndjson")))).toBe("its folder does not exist")
  })

  it("says a folder is a folder, and a denial a denial", () => {
    expect(fileWriteErrorReason(failureWriting(folder))).toBe("is a folder, not a file")
    expect(fileWriteErrorReason(denied)).toBe("permission denied")
  })

  it("keeps Node's words for another failure, without its code, call and path", () => {
    const file = join(folder, "plain.txt")
    writeFileSync(file, "")
    expect(fileWriteErrorReason(failureWriting(join(file, "out.ndjson")))).toBe("not a directory")
  })
})
