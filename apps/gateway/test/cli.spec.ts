/**
 * The newcomer's tools as a newcomer runs them: child processes on Node 24
 * (vitest's own `process.execPath`), against a gateway started here on the
 * configuration the tools wrote. From an empty folder to a paid order.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { type AddressInfo, createServer } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { PassThrough } from "node:stream"
import { layerMemory, newMasterKey } from "@mizan/eventsourcing"
import { mizanSealingPlan } from "@mizan/order-views"
import { generateKeyPair, parsePrivateKey } from "@mizan/protocol"
import { layerKeyFile, layerSealed, layerStore, readMasterKeyFile, writeMasterKeyFile } from "@mizan/stores"
import { Effect, Layer, ManagedRuntime } from "effect"
import { HttpServer } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { displayNameOf } from "../src/cli/displayName.ts"
import { readConfigFile } from "../src/config/configFile.ts"
import { layerService } from "../src/startup/service.ts"
import { freePort, type Run, runScript, startService, stopService } from "./processes.ts"
import { postSigned, type RawAnswer } from "./raw.ts"

const cliDir = resolve(import.meta.dirname, "../src/cli")

const run = (tool: "merchant" | "send", args: ReadonlyArray<string>, cwd: string, extraEnv?: NodeJS.ProcessEnv) =>
  runScript(join(cliDir, `${tool}.ts`), args, cwd, extraEnv)

let folder: string
let configPath: string
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "mizan-cli-"))
  configPath = join(folder, "data", "config.json")
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const merchant = (...args: ReadonlyArray<string>) => run("merchant", [...args, "--config", configPath], folder)

/** Each of these starts the tool as a process, twice for --help: on a busy machine that takes seconds. */
const childProcessTimeoutMs = 30_000

describe("the tools' command lines", () => {
  it.each(["merchant", "send"] as const)(
    "%s answers --help with its usage and 0",
    { timeout: childProcessTimeoutMs },
    async (tool) => {
      for (const args of [["--help"], ["add", "-h"]]) {
        const help = await run(tool, args, folder)
        expect([help.code, help.stderr]).toEqual([0, ""])
        expect(help.stdout).toContain(`npm run ${tool} --`)
      }
    },
  )

  it.each(["merchant", "send"] as const)(
    "%s answers an unknown option in one line and 2",
    { timeout: childProcessTimeoutMs },
    async (tool) => {
      const unknown = await run(tool, ["add", "M1", "--x"], folder)
      expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([
        2,
        "",
        `${tool}: unknown option --x; --help for usage\n`,
      ])
    },
  )
})

describe("merchant add and list", () => {
  it("makes a key pair (private key 0600) and registers the merchant with every grant, fees and payout methods", async () => {
    const added = await merchant("add", "M100001", "--name", "Corner Cafe")
    expect(added.stderr).toBe("")
    expect(added.code).toBe(0)
    expect(added.stdout).toContain("wrote a sandbox configuration")
    expect(added.stdout).toContain("npm start")
    const privateKeyFile = join(folder, "data", "merchants", "M100001", "private.pem")
    expect(statSync(privateKeyFile).mode & 0o777).toBe(0o600)
    expect(readFileSync(privateKeyFile, "utf8")).toContain("BEGIN PRIVATE KEY")
    const config = JSON.parse(readFileSync(configPath, "utf8"))
    expect(config.mode).toBe("sandbox")
    expect(config.merchants).toEqual([
      expect.objectContaining({
        partnerId: "M100001",
        name: "Corner Cafe",
        publicKeyFile: "merchants/M100001/public.pem",
        grants: ["*"],
        fees: expect.objectContaining({ acquiring: { basisPoints: 150, fixedFils: 0 } }),
        payoutAbilities: [
          expect.objectContaining({ networkCode: "LOCAL", fundoutCurrencyCode: "AED" }),
          expect.objectContaining({ networkCode: "SWIFT", fundoutCurrencyCode: "USD" }),
        ],
      }),
    ])
  })

  it("refuses a partner id that is already registered, and one over 12 characters, changing nothing", async () => {
    const before = readFileSync(configPath, "utf8")
    const duplicate = await merchant("add", "M100001")
    expect(duplicate.code).toBe(1)
    expect(duplicate.stderr).toContain("merchant M100001 is already registered")
    const tooLong = await merchant("add", "M1234567890123")
    expect(tooLong.code).toBe(1)
    expect(tooLong.stderr).toContain("is 14 characters long: the Partner-Id header takes at most 12")
    expect(existsSync(join(folder, "data", "merchants", "M1234567890123"))).toBe(false)
    expect(readFileSync(configPath, "utf8")).toBe(before)
  })

  it("asks a person at a terminal for the display name, trimmed, and takes Enter or a closed input as none", async () => {
    const asked = async (typed: string | undefined, isTTY = true) => {
      const input = Object.assign(new PassThrough(), { isTTY })
      const output = new PassThrough()
      const answer = displayNameOf("M100009", undefined, { input, output })
      if (typed === undefined) input.end()
      else input.write(typed)
      return { name: await answer, question: String(output.read() ?? "") }
    }
    expect(await asked("  Corner Cafe \n")).toEqual({
      name: "Corner Cafe",
      question: "Display name of M100009, shown to payers on its pay page (Enter for none): ",
    })
    expect((await asked("\n")).name).toBeUndefined()
    expect((await asked(undefined)).name).toBeUndefined()
    // A script's input is no terminal: nothing is asked, and no name is set unless --name says one.
    expect(await asked("Never read\n", false)).toEqual({ name: undefined, question: "" })
    const input = Object.assign(new PassThrough(), { isTTY: true })
    expect(await displayNameOf("M100009", "Beans", { input, output: new PassThrough() })).toBe("Beans")
  })

  it("lists the registered merchants", async () => {
    const listed = await merchant("list")
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/^M100001\s+all operations\s+.*merchants\/M100001\/public\.pem\s+Corner Cafe$/m)
  })
})

describe("npm start, while merchant add registers another merchant", () => {
  /** A signed getOrder for an order that does not exist: 62004 once the merchant is known, 403 before. */
  const askAsMerchant = (port: number, dataDir: string, partnerId: string) => {
    const key = parsePrivateKey(readFileSync(join(dataDir, "merchants", partnerId, "private.pem"), "utf8"))
    const body = JSON.stringify({ requestTime: Date.now(), bizContent: { merchantOrderNo: "NONE" } })
    return postSigned(`http://127.0.0.1:${port}/sgs/api/acquire2/getOrder`, body, partnerId, key)
  }
  /** The code of the first answer that is no longer 403, or 403 after `waitMs`. */
  const codeOnceKnown = async (ask: () => Promise<RawAnswer>, waitMs: number) => {
    const deadline = Date.now() + waitMs
    for (;;) {
      const code = (await ask()).json.head.code
      if (code !== "403" || Date.now() > deadline) return code
      // Real time: the gateway polls its file on a Node timer, in another process.
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  it("serves the new merchant within seconds, without a restart, and keeps its merchants through a broken edit", {
    timeout: childProcessTimeoutMs,
  }, async () => {
    const dataDir = join(folder, "running")
    const config = join(dataDir, "config.json")
    const add = (partnerId: string) => run("merchant", ["add", partnerId, "--config", config], folder)
    expect((await add("M1")).code).toBe(0)
    const port = await freePort()
    const lines: Array<string> = []
    const gateway = await startService(config, port, { onLine: (line) => lines.push(line) })
    try {
      expect((await add("M2")).code).toBe(0)
      expect(await codeOnceKnown(() => askAsMerchant(port, dataDir, "M2"), 10_000)).toBe("62004")
      expect(lines.some((line) => line.includes(`merchants re-read from ${config}: 2 merchant(s)`))).toBe(true)

      const written = readFileSync(config, "utf8")
      writeFileSync(config, written.slice(0, -10))
      const warned = () => lines.some((line) => line.includes("changed but does not load"))
      const deadline = Date.now() + 10_000
      while (!warned() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
      expect(lines.find((line) => line.includes("changed but does not load"))).toContain(
        `${config} changed but does not load, so the gateway keeps its 2 merchant(s): ${config} is not valid JSON`,
      )
      expect((await askAsMerchant(port, dataDir, "M2")).json.head.code).toBe("62004")
    } finally {
      await stopService(gateway)
    }
  })
})

/** The gateway as `npm start` runs it on that configuration (on the memory store, on a free port). */
const startGateway = () =>
  ManagedRuntime.make(
    layerService({
      config: readConfigFile(configPath),
      baseDir: dirname(configPath),
      storeLayer: layerMemory,
      listen: { port: 0, host: "127.0.0.1" },
    }),
  )

describe("send, against a gateway on the configuration the tools wrote", () => {
  let runtime: ReturnType<typeof startGateway>
  let baseUrl: string
  beforeAll(async () => {
    runtime = startGateway()
    const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
    if (address._tag === "UnixPathAddress") throw new Error("the gateway listens on TCP")
    baseUrl = `http://127.0.0.1:${address.port}`
  })
  afterAll(() => runtime.dispose())

  const send = (...args: ReadonlyArray<string>) =>
    run("send", [...args, "--config", configPath, "--base-url", baseUrl], folder)

  interface Printed {
    readonly head: { readonly code: string }
    readonly body: {
      readonly acquireOrder: { readonly status: string }
      readonly interactionParams: { readonly tokenUrl: string }
    }
  }
  const answerOf = (result: Run) => JSON.parse(result.stdout) as Printed

  it("creates an order, pays it through the sandbox and reads it back as PAID_SUCCESS", async () => {
    const created = await send(
      "M100001",
      "/acquire2/placeOrder",
      '{"merchantOrderNo":"ORDER-1","subject":"Coffee","totalAmount":{"amount":25,"currency":"AED"},"paySceneCode":"PAYPAGE"}',
    )
    expect(created.stderr).toBe("")
    expect(answerOf(created).body.acquireOrder).toMatchObject({ status: "CREATED", totalAmount: { amount: 25 } })
    expect(answerOf(created).body.interactionParams.tokenUrl).toMatch(/\/pay\//)
    // The pay page names the merchant by the display name merchant add registered, not by M100001.
    const page = await (await fetch(answerOf(created).body.interactionParams.tokenUrl)).text()
    expect(page).toContain('<p class="merchant-name" dir="auto">Corner Cafe</p>')

    // As the repository's README writes it: the flag first, the helper with a slash.
    const paid = await send("M100001", "--sandbox", "/payOrder", '{"merchantOrderNo":"ORDER-1"}')
    expect(paid.code).toBe(0)
    expect(answerOf(paid).body.acquireOrder.status).toBe("PAID_SUCCESS")

    const read = await send("M100001", "acquire2/getOrder", '{"merchantOrderNo":"ORDER-1"}')
    expect(read.code).toBe(0)
    expect(answerOf(read)).toMatchObject({
      head: { applyStatus: "SUCCESS", code: "0" },
      body: { acquireOrder: { merchantOrderNo: "ORDER-1", status: "PAID_SUCCESS" } },
    })
  })

  it("exits 1 on a refusal, printing the answer and the code with its message", async () => {
    const refused = await send(
      "M100001",
      "/acquire2/refund/placeOrder",
      '{"refundMerchantOrderNo":"R-1","originMerchantOrderNo":"ORDER-1","amount":{"amount":30,"currency":"AED"}}',
    )
    expect(refused.code).toBe(1)
    expect(answerOf(refused).head.code).toBe("62006")
    expect(refused.stderr).toMatch(/refused: FAIL 62006 .*refundable/)
  })

  it("finds a gateway started with PORT without being told its address, as npm start reads PORT", async () => {
    const port = new URL(baseUrl).port
    const read = await run(
      "send",
      ["M100001", "/acquire2/getOrder", '{"merchantOrderNo":"ORDER-1"}', "--config", configPath],
      folder,
      {
        PORT: port,
      },
    )
    expect(read.stderr).toBe("")
    expect(answerOf(read).head.code).toBe("0")
  })

  it("exits 2 in one line, naming the file, for a bizContent file that does not read", async () => {
    const missing = await send("M100001", "/acquire2/getOrder", "@no-such-order.json")
    expect([missing.code, missing.stderr.trim()]).toEqual([
      2,
      "send: cannot read the bizContent file no-such-order.json: no such file",
    ])
  })

  it("refuses a --base-url that is no http(s) URL in one line, rather than ask whether the gateway runs", async () => {
    const args = ["M100001", "/acquire2/getOrder", "{}", "--config", configPath, "--base-url", "127.0.0.1:8080"]
    const refused = await run("send", args, folder)
    expect([refused.code, refused.stderr.split("\n")[0]]).toEqual([
      2,
      'send: --base-url must be an absolute http:// or https:// URL, such as http://127.0.0.1:8080, not "127.0.0.1:8080"',
    ])
  })

  it("exits 2 with what to do for a merchant that has no key pair", async () => {
    const unknown = await send("M999", "/acquire2/getOrder", '{"merchantOrderNo":"ORDER-1"}')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("npm run merchant -- add M999")
  })
})

/** Opens a new sealed store, `mizan.db` in `dir`, making the master key file: its data keys, the keyed ids' secret, wrapped by that key. */
const sealStoreUnder = (dir: string, masterKeyFile: string) =>
  Effect.runPromise(
    Effect.scoped(
      Layer.build(
        layerSealed(
          layerStore("sqlite:mizan.db", dir),
          layerKeyFile(masterKeyFile, { createWhenMissing: true, settingName: "masterKeyFile" }),
          mizanSealingPlan,
        ),
      ),
    ),
  )

describe("npm start", () => {
  it("says in one line that its port is in use, and never that it started", async () => {
    const taken = createServer()
    await new Promise<void>((listening) => taken.listen(0, "127.0.0.1", listening))
    const { port } = taken.address() as AddressInfo
    try {
      const started = await runScript(resolve(cliDir, "../startup/main.ts"), [], folder, {
        MIZAN_CONFIG: configPath,
        PORT: String(port),
      })
      expect(started.code).toBe(1)
      expect(started.stderr.trim()).toBe(
        `mizan: cannot listen on 127.0.0.1:${port}: the port is in use (is a gateway already running?); set PORT to another one`,
      )
      expect(started.stdout).not.toContain("Mizan gateway")
    } finally {
      await new Promise((closed) => taken.close(closed))
    }
  })

  it("refuses a merchant whose public key does not read, in one line", async () => {
    const badConfig = join(folder, "bad-key.json")
    const merchant = {
      partnerId: "M1",
      publicKeyPem: "-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----\n",
    }
    writeFileSync(badConfig, JSON.stringify({ mode: "sandbox", merchants: [{ ...merchant, grants: ["*"] }] }))
    const started = await runScript(resolve(cliDir, "../startup/main.ts"), [], folder, {
      MIZAN_CONFIG: badConfig,
      PORT: "0",
    })
    expect(started.code).toBe(1)
    expect(started.stderr.trim()).toBe("mizan: merchant M1: the public key is not a readable PEM")
  })

  it("refuses a service key file that does not read, naming the file, in one line", async () => {
    const badKeys = join(folder, "bad-service-keys.json")
    writeFileSync(join(folder, "garbage.pem"), "not a key\n")
    const keysIn = (privateKeyFile: string, publicKeyFile: string) =>
      writeFileSync(
        badKeys,
        JSON.stringify({ mode: "sandbox", serviceKeys: { privateKeyFile, publicKeyFile }, merchants: [] }),
      )
    const start = () =>
      runScript(resolve(cliDir, "../startup/main.ts"), [], folder, { MIZAN_CONFIG: badKeys, PORT: "0" })
    keysIn("garbage.pem", "garbage.pem")
    const garbage = await start()
    expect([garbage.code, garbage.stderr.trim()]).toEqual([
      1,
      `mizan: the service's private key ${join(folder, "garbage.pem")} (serviceKeys.privateKeyFile) does not read: the private key is not a readable PEM`,
    ])
    keysIn("garbage.pem", ".")
    writeFileSync(join(folder, "garbage.pem"), generateKeyPair().privateKeyPem)
    const folderAsKey = await start()
    expect([folderAsKey.code, folderAsKey.stderr.trim()]).toEqual([
      1,
      `mizan: the service's public key ${folder} (serviceKeys.publicKeyFile) does not read: is a folder, not a file`,
    ])
  })

  it("in sandbox mode makes no master key file for a store that holds data keys, and says which master key to put back", async () => {
    const dir = join(folder, "lost-master-keys")
    const masterKeyFile = join(dir, "master-keys.json")
    const config = join(dir, "config.json")
    mkdirSync(dir)
    writeFileSync(config, JSON.stringify({ mode: "sandbox", merchants: [] }))
    // A store sealed under the file's master key (the keyed ids' secret is a data key), and then the file lost.
    await sealStoreUnder(dir, masterKeyFile)
    const [lost] = readMasterKeyFile(masterKeyFile)
    rmSync(masterKeyFile)
    const started = await runScript(resolve(cliDir, "../startup/main.ts"), [], folder, {
      MIZAN_CONFIG: config,
      PORT: "0",
    })
    expect([started.code, started.stderr.trim()]).toEqual([
      1,
      `mizan: the master key file ${masterKeyFile} (masterKeyFile) does not exist, and the store holds data keys wrapped by master key ${lost?.id}: put back the file that holds it (a new master key would open none of them, so none was made)`,
    ])
    expect(existsSync(masterKeyFile)).toBe(false)
  })

  it("refuses a master key file that does not read as its setting's fault, not the store's, in one line", async () => {
    const badMasterKeys = join(folder, "bad-master-keys.json")
    writeFileSync(badMasterKeys, JSON.stringify({ mode: "sandbox", masterKeyFile: ".", merchants: [] }))
    const started = await runScript(resolve(cliDir, "../startup/main.ts"), [], folder, {
      MIZAN_CONFIG: badMasterKeys,
      PORT: "0",
    })
    expect([started.code, started.stderr.trim()]).toEqual([
      1,
      `mizan: cannot read the master key file ${folder} (masterKeyFile): is a folder, not a file`,
    ])
  })

  it("refuses a master key file that is not a key file as its setting's fault, naming the file and what is wrong", async () => {
    const dir = join(folder, "empty-master-keys")
    const masterKeyFile = join(dir, "master-keys.json")
    const config = join(dir, "config.json")
    mkdirSync(dir)
    writeFileSync(masterKeyFile, JSON.stringify({ masterKeys: [] }))
    writeFileSync(config, JSON.stringify({ mode: "sandbox", merchants: [] }))
    const started = await runScript(resolve(cliDir, "../startup/main.ts"), [], folder, {
      MIZAN_CONFIG: config,
      PORT: "0",
    })
    expect([started.code, started.stderr.trim()]).toEqual([
      1,
      `mizan: master key file ${masterKeyFile} (masterKeyFile): masterKeys must list at least one key`,
    ])
  })

  it("refuses a master key file that does not open the store's data keys as its setting's fault, not the store's", async () => {
    const dir = join(folder, "other-master-keys")
    const masterKeyFile = join(dir, "master-keys.json")
    const config = join(dir, "config.json")
    mkdirSync(dir)
    writeFileSync(config, JSON.stringify({ mode: "sandbox", merchants: [] }))
    // A store sealed under the file's master key, then another file (another key) in its place.
    await sealStoreUnder(dir, masterKeyFile)
    const [wrapping] = readMasterKeyFile(masterKeyFile)
    rmSync(masterKeyFile)
    writeMasterKeyFile(masterKeyFile, [newMasterKey()])
    const started = await runScript(resolve(cliDir, "../startup/main.ts"), [], folder, {
      MIZAN_CONFIG: config,
      PORT: "0",
    })
    // The line names the file, its setting and what the key ring said (the data key's id between is the store's own).
    const line = started.stderr.trim()
    const names = `mizan: the master key file ${masterKeyFile} (masterKeyFile) does not open the store's data keys: unwrapping data key `
    const why = `: master key ${wrapping?.id} is not in the key ring (retired, or another key file)`
    expect([started.code, line.slice(0, names.length), line.slice(-why.length)]).toEqual([1, names, why])
  })

  it("says in one line that its store does not open", async () => {
    const unopenable = join(folder, "store-in-a-file.json")
    writeFileSync(join(folder, "not-a-folder"), "")
    writeFileSync(unopenable, JSON.stringify({ mode: "sandbox", store: "sqlite:not-a-folder/mizan.db", merchants: [] }))
    const started = await runScript(resolve(cliDir, "../startup/main.ts"), [], folder, {
      MIZAN_CONFIG: unopenable,
      PORT: "0",
    })
    expect(started.code).toBe(1)
    expect(started.stderr.trim()).toMatch(
      /^mizan: the event store cannot be used \(store sqlite:not-a-folder\/mizan.db\): \w+: opening the event store at .*not-a-folder/,
    )
  })

  it("refuses a PORT that is not a port number in one line, before it listens", async () => {
    const started = await runScript(resolve(cliDir, "../startup/main.ts"), [], folder, {
      MIZAN_CONFIG: configPath,
      PORT: "http",
    })
    expect(started.code).toBe(1)
    expect(started.stderr.trim()).toBe('mizan: PORT must be a port number from 0 to 65535, not "http"')
  })
})
