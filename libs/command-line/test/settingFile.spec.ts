import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { readSettingFile, SettingFileError } from "../src/index.ts"

const folder = mkdtempSync(join(tmpdir(), "mizan-setting-file-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const keyFile = (path: string) => ({ what: "the service's private key", path, settingName: "KEY_FILE" })

/** The line `readSettingFile` refuses `path` with. */
const refusalOf = (path: string, parse: (text: string) => unknown = (text) => text): string => {
  try {
    readSettingFile(keyFile(path), parse)
  } catch (error) {
    expect(error).toBeInstanceOf(SettingFileError)
    return (error as SettingFileError).message
  }
  throw new Error(`expected ${path} to be refused`)
}

describe("a file a setting names", () => {
  it("answers what parse makes of its text", () => {
    const path = join(folder, "key.pem")
    writeFileSync(path, "-----BEGIN PRIVATE KEY-----")
    expect(readSettingFile(keyFile(path), (text) => text.length)).toBe(27)
  })

  it("that does not read is refused naming it, its setting and the file system's reason", () => {
    const path = join(folder, "absent.pem")
    expect(refusalOf(path)).toBe(`the service's private key ${path} (KEY_FILE) does not read: no such file`)
    expect(refusalOf(folder)).toBe(
      `the service's private key ${folder} (KEY_FILE) does not read: is a folder, not a file`,
    )
  })

  it("that parse refuses is refused with parse's reason", () => {
    const path = join(folder, "garbage.pem")
    writeFileSync(path, "garbage")
    const refusal = refusalOf(path, () => {
      throw new Error("the private key is not a readable PEM")
    })
    expect(refusal).toBe(
      `the service's private key ${path} (KEY_FILE) does not read: the private key is not a readable PEM`,
    )
  })
})
