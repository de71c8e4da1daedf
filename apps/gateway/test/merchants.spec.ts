import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { ConfigError } from "../src/config/config.ts"
import { loadMerchant } from "../src/pipeline/merchants.ts"

const folder = mkdtempSync(join(tmpdir(), "mizan-merchants-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** The refusal of a merchant whose publicKeyFile is `publicKeyFile`, relative to the config's folder. */
const refusalOf = (publicKeyFile: string): unknown => {
  try {
    loadMerchant({ partnerId: "M1", publicKeyFile, grants: ["*"] }, folder)
  } catch (error) {
    return error
  }
  throw new Error(`expected merchant M1's key file ${publicKeyFile} to be refused`)
}

describe("a merchant's public key file that does not read", () => {
  it.each([
    ["absent.pem", join(folder, "absent.pem"), "no such file"],
    [".", folder, "is a folder, not a file"],
  ])("%s is refused naming the merchant, the file, its setting and why", (publicKeyFile, path, reason) => {
    const refusal = refusalOf(publicKeyFile)
    expect(refusal).toBeInstanceOf(ConfigError)
    expect((refusal as ConfigError).message).toBe(
      `merchant M1: the public key ${path} (publicKeyFile) does not read: ${reason}`,
    )
  })
})
