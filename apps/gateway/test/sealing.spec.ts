/**
 * Sealed personal data, proved on real processes: the service
 * (`main.ts`) on a SQLite file and on PostgreSQL takes card transfers
 * (test PAN 4111111111111111), wallet transfers (phone numbers), bank
 * transfers (IBANs and names), an acquiring order with a payer's eid
 * and a sharing member, paid and refunded, and a DIRECTPAY order with the
 * payer's email and customer id, paid by a named payer with a card and
 * announced. Then every byte of the store's files, its
 * write-ahead log, an export and the service's log is searched: neither a
 * clear value nor its unkeyed SHA-256 hex is there. The audit answers an
 * access request for the paying member with its data in clear, and none
 * of the order's own payer's. A card holder is
 * forgotten with the audit while the service runs: the service answers the
 * placeholder within its key cache time, the audit replays clean, a
 * second forget changes nothing, and an access request shows none of its
 * data; so is the order's payer, whose eid the
 * order then answers as the placeholder, and the paying member, whose
 * record get order payer then answers as the placeholder, and the payer of
 * the order without an eid, by the order's stream, whose email the order
 * and its notification's copy then hold as the placeholder. On SQLite, the master key is rotated and
 * retired while card transfers go on: nothing is lost, everything opens.
 */
import type { ChildProcess } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runCliToText } from "@mizan/audit"
import { forgotten } from "@mizan/kernel"
import type { MerchantClient } from "@mizan/merchant-client"
import { generateKeyPair } from "@mizan/protocol"
import { type EmbeddedServer, startEmbeddedPostgres, testServerSettings } from "@mizan/store-postgres/testing"
import { readMasterKeyFile } from "@mizan/stores"
import { afterAll, describe, expect, it } from "vitest"
import { aed, ok, sandbox } from "./calls.ts"
import { startGateway, testConfig } from "./harness.ts"
import { startMerchantEndpoint } from "./merchantEndpoint.ts"
import { clientOf, freePort, startService, stopService } from "./processes.ts"

const pan = "4111111111111111"
const cardHolder = { firstName: "Amal Noor", lastName: "Al Saeed" }
const phone = "971500000001"
const iban = "AE070331234567890123456"
const holderName = "Amal Saeed"
const eid = "784199012345671"
const sharingPhone = "971500000002"
const nextYear = String(new Date().getUTCFullYear() + 1)
/** The payer of a DIRECTPAY order: the merchant's email and customer id for it, its member id and its card. */
const email = "amal.saeed@example.ae"
const customerId = "customer-amal-77"
const payerMid = "payer-amal-0042"
const directCard = {
  brand: "VISA",
  cardId: "card-amal-7f3a",
  last4: "8537",
  cardType: "CC",
  expMonth: "07",
  expYear: "31",
}

/** Every personal value the run sends, and the unkeyed digest of each: none may be found in what the service keeps. */
const unkeyedDigest = (value: string) => createHash("sha256").update(value, "utf8").digest("hex")

/**
 * Values too short or too common to look for alone (a card's last 4 digits
 * turn up in any hex), looked for as the JSON field that would hold them in
 * clear; the sandbox payer's masked number, device and IP address are its own.
 */
const inClearFields = [
  `"last4":"${directCard.last4}"`,
  `"expMonth":"${directCard.expMonth}"`,
  `"expYear":"${directCard.expYear}"`,
  `"mobileNumberMask":"97150****001"`,
  `"deviceId":"sandbox-device"`,
  `"ipAddress":"127.0.0.1"`,
]

const secrets = [
  ...[
    pan,
    cardHolder.firstName,
    cardHolder.lastName,
    phone,
    iban,
    holderName,
    eid,
    sharingPhone,
    email,
    customerId,
    payerMid,
    directCard.cardId,
  ].flatMap((value) => [value, unkeyedDigest(value)]),
  ...inClearFields,
]

/**
 * `mizan-audit ARGS` on `store` with the master key file the service made
 * in `dataDir`, started there: its exit code, stdout and stderr. It runs in
 * this test's process, apart from the service's as an operator's command
 * is (processes.ts's `auditReplay` starts the command line itself); a
 * start of the command line would cost a second or two each, two dozen
 * times.
 */
const audit = (args: ReadonlyArray<string>, dataDir: string, store: string) =>
  runCliToText([...args, "--store", store, "--master-key-file", join(dataDir, "master-keys.json")], { cwd: dataDir })

const filesUnder = (path: string): ReadonlyArray<string> =>
  !existsSync(path)
    ? []
    : statSync(path).isDirectory()
      ? readdirSync(path).flatMap((name) => filesUnder(join(path, name)))
      : statSync(path).isFile()
        ? [path]
        : []

/** The secrets found in `files`, each with the file that holds it. */
const secretsIn = (files: ReadonlyArray<string>) =>
  files.flatMap((file) => {
    const bytes = readFileSync(file)
    return secrets.filter((secret) => bytes.includes(secret)).map((secret) => `${secret} in ${file}`)
  })

const placeCard = (client: MerchantClient, merchantOrderNo: string, cardNumber = pan) =>
  ok(client, "/transfer/placeTransferToBankCard", {
    merchantOrderNo,
    accountHolderType: "INDIVIDUAL",
    firstName: client.encryptField(cardHolder.firstName),
    lastName: client.encryptField(cardHolder.lastName),
    cardNumber: client.encryptField(cardNumber),
    expiryYear: client.encryptField(nextYear),
    expiryMonth: client.encryptField("06"),
    memo: "Deposit back",
    amount: { amount: 20, currency: "AED" },
  } as never)

const getCard = (client: MerchantClient, merchantOrderNo: string) =>
  ok(client, "/transfer/getTransferToBankCard", { merchantOrderNo }) as Promise<{
    transferToBankCard: Record<string, unknown>
  }>

interface Run {
  readonly dataDir: string
  /** The store setting, as the audit reads it (a SQLite path in full). */
  readonly store: string
  readonly service: ChildProcess
  readonly client: MerchantClient
  readonly log: Array<string>
}

const startSealedService = async (dataDir: string, store: string): Promise<Run> => {
  const configPath = join(dataDir, "gateway.json")
  // A second of key cache, so that the audit's forget reaches the running service within the test.
  writeFileSync(configPath, JSON.stringify({ ...testConfig({ store }), keyCacheSeconds: 1 }))
  const port = await freePort()
  const log: Array<string> = []
  const service = await startService(configPath, port, { onLine: (line) => log.push(line) })
  const auditStore = store.startsWith("sqlite:") ? `sqlite:${join(dataDir, store.slice("sqlite:".length))}` : store
  return {
    dataDir,
    store: auditStore,
    service,
    client: clientOf(dataDir, port),
    log,
  }
}

/**
 * Card, wallet and bank transfers with every kind of personal value. The
 * wallet transfer succeeds at once and is announced: its notification keeps
 * a copy of the order, member identity included, which must be sealed too.
 */
const transferEverything = async ({ client }: Run) => {
  const endpoint = await startMerchantEndpoint()
  await placeCard(client, "sealed-card-1")
  await ok(client, "/transfer/placeTransferOrder", {
    merchantOrderNo: "sealed-wallet-1",
    beneficiaryIdentityType: "PHONE_NO",
    beneficiaryIdentity: client.encryptField(phone),
    memo: "Salary advance",
    notifyUrl: endpoint.url,
    amount: { amount: 10, currency: "AED" },
  } as never)
  await ok(client, "/transfer/placeTransferToBankOrder", {
    merchantOrderNo: "sealed-bank-1",
    holderName: client.encryptField(holderName),
    iban: client.encryptField(iban),
    memo: "Invoice 7",
    amount: { amount: 500, currency: "AED" },
  } as never)
  const deadline = Date.now() + 20_000
  while (endpoint.bodies.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  await endpoint.close()
  // The merchant got the identity's digest, as the spec says: only the store must not keep it in clear.
  expect(JSON.stringify(endpoint.bodies)).toContain(unkeyedDigest(phone))
}

/** The order's sharing member, as create order and an explicit refund name it. */
const sharingMember = (client: MerchantClient, amount: number) => ({
  sharingIdentitySeqId: 1,
  sharingIdentityType: "PHONE_NO",
  sharingIdentity: client.encryptField(sharingPhone),
  sharingMemo: "partner",
  sharingAmount: aed(amount),
})

/**
 * An acquiring order with the payer's eid and a sharing member, paid, and
 * refunded with the member named: the eid and the identity reach the
 * order's request, the refund's reservation and the order's notification.
 */
const acquireAndRefund = async ({ client }: Run) => {
  await ok(client, "/acquire2/placeOrder", {
    merchantOrderNo: "sealed-order-1",
    subject: "Sealed",
    totalAmount: aed(100),
    paySceneCode: "PAYPAGE",
    paySceneParams: { eid: client.encryptField(eid) },
    sharingParamList: [sharingMember(client, 40)],
  } as never)
  const paid = await sandbox(client, "payOrder", { merchantOrderNo: "sealed-order-1" })
  expect(paid.head.code, `payOrder: ${paid.head.msg}`).toBe("0")
  await ok(client, "/acquire2/refund/placeOrder", {
    refundMerchantOrderNo: "sealed-refund-1",
    originMerchantOrderNo: "sealed-order-1",
    amount: aed(10),
    refundSharingAmount: true,
    sharingParamList: [sharingMember(client, 10)],
  } as never)
  const order = await getOrder(client)
  // The merchant gets the eid's digest, as the spec says: only the store must not keep it in clear.
  expect(order.paySceneParams?.eid).toBe(unkeyedDigest(eid))
}

const getOrder = async (client: MerchantClient, merchantOrderNo = "sealed-order-1") =>
  (await ok(client, "/acquire2/getOrder", { merchantOrderNo })).acquireOrder as {
    paySceneParams?: Record<string, string>
    paymentInfo?: { payerMid?: string; cardInfo?: Record<string, string> }
    status: string
  }

const getPayer = async (client: MerchantClient) =>
  (await ok(client, "/acquire2/getOrderPayer", { merchantOrderNo: "sealed-direct-1" })).payer as Record<string, string>

/**
 * A DIRECTPAY order with the payer's email and customer id and no eid, paid
 * by a named payer with a card, and announced: the order, its payment and
 * the notification's copy of both hold the payer's fields.
 */
const payDirectly = async ({ client }: Run) => {
  const endpoint = await startMerchantEndpoint()
  await ok(client, "/acquire2/placeOrder", {
    merchantOrderNo: "sealed-direct-1",
    subject: "Direct",
    totalAmount: aed(30),
    paySceneCode: "DIRECTPAY",
    paySceneParams: { email, customerId },
    notifyUrl: endpoint.url,
  } as never)
  const paid = await sandbox(client, "payOrder", {
    merchantOrderNo: "sealed-direct-1",
    payerMid,
    cardInfo: directCard,
  })
  expect(paid.head.code, `payOrder: ${paid.head.msg}`).toBe("0")
  const deadline = Date.now() + 20_000
  while (endpoint.bodies.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  await endpoint.close()
  // The merchant gets the payer and the card as the spec says, in answers and notifications: only the store must not keep them in clear.
  expect(JSON.stringify(endpoint.bodies)).toContain(directCard.cardId)
  const order = await getOrder(client, "sealed-direct-1")
  expect(order.paySceneParams).toMatchObject({ email, customerId })
  expect(order.paymentInfo).toMatchObject({ payerMid, cardInfo: directCard })
  expect(await getPayer(client)).toEqual({
    payerMid,
    mobileNumberMask: "97150****001",
    deviceId: "sandbox-device",
    ipAddress: "127.0.0.1",
  })
}

const exportAndSearch = async (run: Run, storeFiles: ReadonlyArray<string>) => {
  const exportPath = join(run.dataDir, "export.ndjson")
  const exported = await audit(["export", "--out", exportPath], run.dataDir, run.store)
  expect(exported.stderr).toBe("")
  const logPath = join(run.dataDir, "service.log")
  writeFileSync(logPath, run.log.join("\n"))
  expect(storeFiles.length).toBeGreaterThan(0)
  expect(secretsIn([...storeFiles, exportPath, logPath])).toEqual([])
}

/** `audit access --json` as a script reads it. */
interface AccessAnswer {
  readonly held: boolean
  readonly forgotten: ReadonlyArray<{ readonly by: string }>
  readonly events: ReadonlyArray<{ readonly streamId: string; readonly type: string; readonly data: unknown }>
}

const accessOf = async (run: Run, subject: string): Promise<AccessAnswer> => {
  const access = await audit(["access", subject, "--json"], run.dataDir, run.store)
  expect([access.code, access.stderr]).toEqual([0, ""])
  return JSON.parse(access.stdout) as AccessAnswer
}

/**
 * A subject access request for the paying member, by the member id in
 * clear: the order's payment and its notification's copy, the member's
 * record and card in clear, and not the order's email and customer id,
 * which are the order's own payer subject's.
 */
const answerTheAccessRequest = async (run: Run) => {
  const answer = await accessOf(run, `payer:${payerMid}`)
  expect(answer).toMatchObject({ held: true, forgotten: [] })
  const paid = answer.events.find((event) => event.type === "OrderPaid")
  expect(paid?.data).toEqual({
    payer: { payerMid, mobileNumberMask: "97150****001", deviceId: "sandbox-device", ipAddress: "127.0.0.1" },
    cardInfo: {
      cardId: directCard.cardId,
      last4: directCard.last4,
      expMonth: directCard.expMonth,
      expYear: directCard.expYear,
    },
  })
  expect(answer.events.map((event) => event.type)).toContain("NotificationScheduled")
  const text = JSON.stringify(answer.events)
  expect(text).not.toContain(email)
  expect(text).not.toContain(customerId)
}

const forgetTheCardHolder = async (run: Run) => {
  const before = await getCard(run.client, "sealed-card-1")
  expect(before.transferToBankCard.cardNumber).toBe(unkeyedDigest(pan))
  const forget = await audit(["forget", `card:${pan}`, "--by", "dpo@example.ae"], run.dataDir, run.store)
  expect(forget.stderr).toBe("")
  expect(forget.stdout).toMatch(/^forgot card:[0-9a-f]{64}: 1 data key\(s\) destroyed/)
  // The service's key cache holds the key a second at most.
  await new Promise((resolve) => setTimeout(resolve, 1_500))
  const after = await getCard(run.client, "sealed-card-1")
  expect(after.transferToBankCard).toMatchObject({
    cardNumber: forgotten,
    firstName: forgotten,
    lastName: forgotten,
    expiryYear: forgotten,
    expiryMonth: forgotten,
    // AED 20, as the client decodes an amount: in fils.
    amount: 2000,
    status: expect.any(String),
  })
  const replay = await audit(["replay", "--json"], run.dataDir, run.store)
  expect(replay.stderr).toBe("")
  expect(JSON.parse(replay.stdout)).toMatchObject({ ok: true })
  const again = await audit(["forget", `card:${pan}`, "--by", "dpo@example.ae"], run.dataDir, run.store)
  expect(again.code).toBe(0)
  expect(again.stdout).toContain("nothing changed")
  // An access request now finds where the card's data was, and none of it to show.
  const access = await accessOf(run, `card:${pan}`)
  expect(access).toMatchObject({ held: true, forgotten: [{ by: "dpo@example.ae" }] })
  expect(JSON.stringify(access.events)).not.toContain(cardHolder.firstName)
  expect(access.events.map((event) => event.type)).toContain("BankCardTransferPlaced")
}

const forgetThePayer = async (run: Run) => {
  const forget = await audit(["forget", `payer:${eid}`, "--by", "dpo@example.ae"], run.dataDir, run.store)
  expect(forget.stderr).toBe("")
  expect(forget.stdout).toMatch(/^forgot payer:[0-9a-f]{64}: 1 data key\(s\) destroyed/)
  await new Promise((resolve) => setTimeout(resolve, 1_500))
  const order = await getOrder(run.client)
  expect(order.paySceneParams?.eid).toBe(forgotten)
  expect(order.status).toBe("PAID_SUCCESS")
  const replay = await audit(["replay", "--json"], run.dataDir, run.store)
  expect(JSON.parse(replay.stdout)).toMatchObject({ ok: true })
}

/** The DIRECTPAY payer, forgotten by its member id: get order payer, the payment's payer and its card read [forgotten]. */
const forgetThePayingMember = async (run: Run) => {
  const forget = await audit(["forget", `payer:${payerMid}`, "--by", "dpo@example.ae"], run.dataDir, run.store)
  expect(forget.stderr).toBe("")
  expect(forget.stdout).toMatch(/^forgot payer:[0-9a-f]{64}: 1 data key\(s\) destroyed/)
  await new Promise((resolve) => setTimeout(resolve, 1_500))
  expect(await getPayer(run.client)).toEqual({
    payerMid: forgotten,
    mobileNumberMask: forgotten,
    deviceId: forgotten,
    ipAddress: forgotten,
  })
  const order = await getOrder(run.client, "sealed-direct-1")
  expect(order.paymentInfo).toMatchObject({
    payerMid: forgotten,
    cardInfo: {
      brand: "VISA",
      cardType: "CC",
      cardId: forgotten,
      last4: forgotten,
      expMonth: forgotten,
      expYear: forgotten,
    },
  })
  // The email and customer id were given before anyone paid: they are the order's payer subject's, not the member's.
  expect(order.paySceneParams).toMatchObject({ email, customerId })
  const replay = await audit(["replay", "--json"], run.dataDir, run.store)
  expect(JSON.parse(replay.stdout)).toMatchObject({ ok: true })
}

/** Every stream's state now, as the audit answers `at`, of the streams whose state names `merchantOrderNo`. */
const streamsNaming = async (run: Run, merchantOrderNo: string) => {
  const at = await audit(["at", new Date(Date.now() + 60_000).toISOString(), "--json"], run.dataDir, run.store)
  expect(at.stderr).toBe("")
  const { streams } = JSON.parse(at.stdout) as { streams: Array<{ streamId: string; kind: string; state: unknown }> }
  return streams.filter((stream) => JSON.stringify(stream.state).includes(`"${merchantOrderNo}"`))
}

/**
 * The DIRECTPAY order's payer, named by no eid, forgotten by the order's
 * stream: the order's email and customer id, and the notification's copy
 * of them, read [forgotten] in the service's answer and in the audit.
 */
const forgetTheDirectOrdersPayer = async (run: Run) => {
  const before = await streamsNaming(run, "sealed-direct-1")
  const order = before.find((stream) => stream.kind === "acquiring")
  expect(order, JSON.stringify(before.map((stream) => [stream.streamId, stream.kind]))).toBeDefined()
  // The notification's copy holds the email too, until the payer is forgotten.
  expect(before.filter((stream) => JSON.stringify(stream.state).includes(email)).length).toBeGreaterThanOrEqual(2)
  const forget = await audit(
    ["forget", "payer", "--stream", order!.streamId, "--by", "dpo@example.ae"],
    run.dataDir,
    run.store,
  )
  expect(forget.stderr).toBe("")
  expect(forget.stdout).toMatch(/^forgot payer:[0-9a-f]{64}: 1 data key\(s\) destroyed/)
  await new Promise((resolve) => setTimeout(resolve, 1_500))
  expect((await getOrder(run.client, "sealed-direct-1")).paySceneParams).toMatchObject({
    email: forgotten,
    customerId: forgotten,
  })
  const after = await streamsNaming(run, "sealed-direct-1")
  expect(after.map((stream) => stream.kind).sort()).toEqual(before.map((stream) => stream.kind).sort())
  for (const stream of after) {
    expect(JSON.stringify(stream.state)).not.toContain(email)
    expect(JSON.stringify(stream.state)).not.toContain(customerId)
  }
  expect(after.filter((stream) => JSON.stringify(stream.state).includes(`"email":"${forgotten}"`)).length).toBe(
    before.filter((stream) => JSON.stringify(stream.state).includes(email)).length,
  )
  const replay = await audit(["replay", "--json"], run.dataDir, run.store)
  expect(JSON.parse(replay.stdout)).toMatchObject({ ok: true })
}

describe("sealed personal data on real processes", () => {
  const root = mkdtempSync(join(tmpdir(), "mizan-sealing-"))
  let postgres: EmbeddedServer | undefined
  const services: Array<ChildProcess> = []
  afterAll(async () => {
    for (const service of services) await stopService(service)
    await postgres?.stop()
    rmSync(root, { recursive: true, force: true })
  })

  it("on SQLite: no clear value or unkeyed digest in the file, its WAL, an export or the log; a card holder forgotten; the master key rotated under load", {
    timeout: 120_000,
  }, async () => {
    const dataDir = join(root, "sqlite")
    mkdirSync(dataDir)
    const run = await startSealedService(dataDir, "sqlite:store.db")
    services.push(run.service)
    await transferEverything(run)
    await acquireAndRefund(run)
    await payDirectly(run)
    await exportAndSearch(run, [join(dataDir, "store.db"), join(dataDir, "store.db-wal")].filter(existsSync))
    await answerTheAccessRequest(run)
    await forgetTheCardHolder(run)
    await forgetThePayer(run)
    await forgetThePayingMember(run)
    await forgetTheDirectOrdersPayer(run)

    // Card transfers keep coming (a new card each, so a new data key each) while the master key turns over.
    const oldKeys = readMasterKeyFile(join(dataDir, "master-keys.json")).map((key) => key.id)
    let placed = 0
    let writing = true
    const writer = (async () => {
      while (writing) {
        await placeCard(run.client, `rotation-${placed}`, `4000000000${String(100_000 + placed)}`)
        placed++
      }
    })()
    const rotated = await audit(["rotate-master-key", "--retire"], dataDir, run.store)
    writing = false
    await writer
    expect(rotated.stderr).toBe("")
    expect(rotated.stdout).toContain(`retired ${oldKeys.join(", ")}`)
    expect(readMasterKeyFile(join(dataDir, "master-keys.json")).map((key) => key.id)).not.toContain(oldKeys[0])
    expect(placed).toBeGreaterThan(0)
    for (let n = 0; n < placed; n++) {
      const { transferToBankCard } = await getCard(run.client, `rotation-${n}`)
      expect(transferToBankCard.cardNumber).toMatch(/^[0-9a-f]{64}$/)
    }
    const replay = await audit(["replay", "--json"], dataDir, run.store)
    expect(JSON.parse(replay.stdout)).toMatchObject({ ok: true })
  })

  it("on PostgreSQL: no clear value or unkeyed digest in the server's files or WAL, an export or the log; a card holder forgotten", {
    timeout: 120_000,
  }, async () => {
    const dataDir = join(root, "postgres")
    mkdirSync(dataDir)
    postgres = await startEmbeddedPostgres({ settings: testServerSettings })
    const run = await startSealedService(dataDir, await postgres.createDatabase("sealing"))
    services.push(run.service)
    await transferEverything(run)
    await acquireAndRefund(run)
    await payDirectly(run)
    // What the server keeps: its tables' files and its write-ahead log.
    await exportAndSearch(run, filesUnder(postgres.dataDirectory))
    await answerTheAccessRequest(run)
    await forgetTheCardHolder(run)
    await forgetThePayer(run)
    await forgetThePayingMember(run)
    await forgetTheDirectOrdersPayer(run)
  })
})

describe("the master key file in production", () => {
  it("is never made: a production gateway without one refuses to start, naming the setting", async () => {
    const keysDir = mkdtempSync(join(tmpdir(), "mizan-production-keys-"))
    try {
      const pair = generateKeyPair()
      const privateKeyFile = join(keysDir, "service-private.pem")
      const publicKeyFile = join(keysDir, "service-public.pem")
      writeFileSync(privateKeyFile, pair.privateKeyPem, { mode: 0o600 })
      writeFileSync(publicKeyFile, pair.publicKeyPem)
      const masterKeyFile = join(keysDir, "master-keys.json")
      await expect(
        startGateway({
          config: {
            ...testConfig(),
            mode: "production",
            serviceKeys: { privateKeyFile, publicKeyFile },
            masterKeyFile,
          },
        }),
      ).rejects.toThrow(`the master key file ${masterKeyFile} does not exist: set masterKeyFile`)
      expect(existsSync(masterKeyFile)).toBe(false)
    } finally {
      rmSync(keysDir, { recursive: true, force: true })
    }
  })
})
