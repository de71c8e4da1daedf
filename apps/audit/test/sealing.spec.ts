/**
 * Sealed personal data as the operator meets it (crypto-shredding): a history
 * written through the sealed store, then `forget` and `rotate-master-key`
 * from the command line, and what replay, show and the stored chain say
 * afterwards.
 */
import { createHash } from "node:crypto"
import { copyFileSync, existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { AcquiringOrder } from "@mizan/acquiring"
import { createOrder, eventsDecidedBy, merchantId } from "@mizan/acquiring/testing"
import { EventStore, makeMemoryEventStore, newMasterKey, type RecordedEvent, Sealing } from "@mizan/eventsourcing"
import { expectChained } from "@mizan/eventsourcing/testing"
import { generateHistory } from "@mizan/histories"
import { forgotten } from "@mizan/kernel"
import { readMasterKeyFile, writeMasterKeyFile } from "@mizan/stores"
import { Effect } from "effect"
import { exitCodes, importLog } from "../src/index.ts"
import { cli } from "./support/cli.ts"
import { readWholeLog, tempFolder, withSealedSqliteStore, withSqliteStore } from "./support/stores.ts"

const folder = tempFolder()
const storePath = join(folder.dir, "sealed.db")
const masterKeyFile = join(folder.dir, "master-keys.json")
const args = ["--store", `sqlite:${storePath}`, "--master-key-file", masterKeyFile]

/** The store at `path` as the domain reads it, sealed fields opened; and as stored. */
const opened = (path: string) => withSealedSqliteStore(path, masterKeyFile, readWholeLog)
const rawLogOf = (path: string) => withSqliteStore(path, readWholeLog)

const onSealed = <A, E>(body: Effect.Effect<A, E, EventStore | Sealing>) =>
  withSealedSqliteStore(storePath, masterKeyFile, body)
const rawLog = () => rawLogOf(storePath)

/** Appends, sealed, an order created without an eid, its payer named by `email` and `customerId`; answers its stream. */
const appendOrderWithoutEid = async (merchantOrderNo: string, email: string, customerId: string) => {
  const [created] = eventsDecidedBy(createOrder({ merchantOrderNo, paySceneParams: { email, customerId } }))
  const streamId = AcquiringOrder.streamId(merchantId, merchantOrderNo)
  await onSealed(
    Effect.flatMap(EventStore, (store) =>
      store.append(streamId, [AcquiringOrder.eventCodec.encode(created!)], "no_stream"),
    ),
  )
  return streamId
}

let card: RecordedEvent
/** A bank card transfer to another card than `card`'s: never forgotten here. */
let otherCard: RecordedEvent
let memberOpened: RecordedEvent

const cardNumberOf = (event: RecordedEvent) => (event.data as { cardNumber: string }).cardNumber

beforeAll(async () => {
  await onSealed(generateHistory({ seed: 23, events: 800 }))
  const events = await onSealed(readWholeLog)
  const placed = events.filter((event) => event.type === "BankCardTransferPlaced")
  const other = placed.find((event) => cardNumberOf(event) !== cardNumberOf(placed[0]!))
  if (other === undefined) throw new Error("the history holds no bank card transfers to two cards")
  card = placed[0]!
  otherCard = other
  const opened = events.find((event) => event.type === "MemberAccountOpened")
  if (opened === undefined) throw new Error("the history holds no member account")
  memberOpened = opened
}, 60_000)

afterAll(() => folder.cleanup())

describe("a sealed store", () => {
  it("holds no card number digest, card digits or expiry of a card transfer in its file", () => {
    const { cardNumber, cardLast4, expiryYear } = card.data as Record<string, string>
    const bytes = readFileSync(storePath)
    expect(cardNumber).toMatch(/^[0-9a-f]{64}$/)
    expect(bytes.includes(cardNumber!)).toBe(false)
    expect(bytes.includes(`"cardLast4":"${cardLast4}"`)).toBe(false)
    expect(bytes.includes(`"expiryYear":"${expiryYear}"`)).toBe(false)
  })

  it("replays clean with its fields opened", async () => {
    const run = await cli(["replay", ...args])
    expect(run.stderr).toBe("")
    expect(run.code).toBe(exitCodes.ok)
  })
})

describe("a sealed event altered in the file", () => {
  it("is reported where it stands, its sealed fields not opening, and the rest replayed: 1, not 2", async () => {
    const altered = join(folder.dir, "altered.db")
    for (const suffix of ["", "-wal"])
      if (existsSync(`${storePath}${suffix}`)) copyFileSync(`${storePath}${suffix}`, `${altered}${suffix}`)
    const db = new DatabaseSync(altered)
    const row = db.prepare("SELECT data FROM events WHERE global_position = ?").get(card.globalPosition)
    const data = JSON.parse(String(row?.data)) as { $sealed: Array<{ box: string }> }
    const box = data.$sealed[0]!.box
    data.$sealed[0]!.box = `${box.startsWith("A") ? "B" : "A"}${box.slice(1)}`
    db.prepare("UPDATE events SET data = ? WHERE global_position = ?").run(JSON.stringify(data), card.globalPosition)
    db.close()
    const run = await cli(["replay", "--store", `sqlite:${altered}`, "--master-key-file", masterKeyFile])
    expect([run.code, run.stderr]).toEqual([exitCodes.broken, ""])
    expect(run.stdout).toContain("Undecodable events: 1\n")
    const line = run.stdout.split("\n").find((l) => l.startsWith(`  ${card.streamId} v${card.streamVersion} `))
    expect(line).toMatch(
      new RegExp(
        `^  ${card.streamId} v${card.streamVersion} \\(position ${card.globalPosition}\\): ${card.type} v${card.schemaVersion}: the store cannot read it: .*do not open`,
      ),
    )
  })
})

describe("forget", () => {
  it("destroys a card's keys: replay stays clean, show reads [forgotten], the chain is whole, and a second forget changes nothing", async () => {
    const { cardNumber } = card.data as Record<string, string>
    const first = await cli(["forget", `card:${cardNumber}`, "--by", "dpo@example.ae", ...args])
    expect(first.stderr).toBe("")
    expect(first.stdout).toMatch(/^forgot card:[0-9a-f]{64}: 1 data key\(s\) destroyed, recorded as by dpo@example.ae/)
    expect(first.stdout).not.toContain(cardNumber)

    const replay = await cli(["replay", ...args])
    expect(replay.code).toBe(exitCodes.ok)
    const shown = await cli(["show", card.streamId, "--json", ...args])
    expect(shown.code).toBe(exitCodes.ok)
    expect(shown.stdout).toContain(`"cardNumber":"${forgotten}"`)
    expect(shown.stdout).toContain(`"cardLast4":"${forgotten}"`)
    expect(shown.stdout).not.toContain(cardNumber)

    const log = await rawLog()
    expectChained(log)
    const forgets = log.filter((event) => event.type === "SubjectForgotten")
    expect(forgets).toHaveLength(1)
    expect(forgets[0]?.data).toMatchObject({ by: "dpo@example.ae", keysDestroyed: 1 })

    const second = await cli(["forget", `card:${cardNumber}`, "--by", "dpo@example.ae", ...args])
    expect(second.code).toBe(exitCodes.ok)
    const at = new Date((forgets[0]!.data as { at: number }).at).toISOString()
    expect(second.stdout).toMatch(
      new RegExp(`^card:[0-9a-f]{64} was forgotten already, at ${at} by dpo@example.ae: nothing changed\n$`),
    )
    expect((await rawLog()).length).toBe(log.length)
  })

  it("tells a subject the store never held from one forgotten, with 3: a card number with its dashes names nobody", async () => {
    const before = (await rawLog()).length
    const run = await cli(["forget", "card:4111-1111-1111-1111", "--by", "dpo", ...args])
    expect(run.code).toBe(exitCodes.nothingHeld)
    expect(run.stdout).toMatch(
      /^no event holds data of card:[0-9a-f]{64}, nor was it ever forgotten: nothing changed\. /,
    )
    expect(run.stdout).not.toContain("4111")
    const ofStream = await cli(["forget", "card", "--stream", card.streamId, "--by", "dpo", ...args])
    expect(ofStream.code).toBe(exitCodes.nothingHeld)
    expect(ofStream.stdout).toBe(
      `no event of ${card.streamId} holds a card of its own, nor was one ever forgotten: nothing changed\n`,
    )
    expect((await rawLog()).length).toBe(before)
  })

  it("refuses a KIND no event holds, naming the kinds, with 2 and no event written", async () => {
    const before = (await rawLog()).length
    for (const line of [
      ["forget", "crad:4111111111111111", "--by", "dpo"],
      ["forget", "payr", "--stream", "acquiring-M1-ORDER-1", "--by", "dpo"],
    ]) {
      const run = await cli([...line, ...args])
      expect(run.code).toBe(exitCodes.failed)
      expect(run.stderr.split("\n")[0]).toMatch(
        /^mizan-audit: forget KIND must be one of card, iban, member, payer, remitter, not "(crad|payr)"$/,
      )
    }
    expect((await rawLog()).length).toBe(before)
  })

  it("refuses --stream naming a stream the store does not hold, with 2 and no event written", async () => {
    const before = (await rawLog()).length
    const run = await cli(["forget", "payer", "--stream", "acquiring-2-M1-NO-SUCH-ORDER", "--by", "dpo", ...args])
    expect([run.code, run.stdout, run.stderr]).toEqual([
      exitCodes.failed,
      "",
      "mizan-audit: the store holds no stream acquiring-2-M1-NO-SUCH-ORDER: name the order's stream as show names it\n",
    ])
    expect((await rawLog()).length).toBe(before)
  })

  it("takes the clear value and digests it as the edge does", async () => {
    const run = await cli(["forget", "member:+971500000000", "--by", "dpo", ...args])
    // No member of the history has this number: nothing held, and the subject the answer names is still the digest's.
    expect(run.code).toBe(exitCodes.nothingHeld)
    const digest = createHash("sha256").update("+971500000000").digest("hex")
    expect(run.stdout).not.toContain(digest)
    expect(run.stdout).not.toContain("+971500000000")
    // The subject it names is the one the edge's digest of the number keys to, not the clear number's.
    const byDigest = await onSealed(Effect.map(Sealing, (sealing) => sealing.subjectIdOf("member", digest)))
    expect(run.stdout).toContain(byDigest)
  })

  it("forgets the payer of an order created without an eid by the order's stream: its email and customer id read [forgotten]", async () => {
    const streamId = await appendOrderWithoutEid("no-eid-1", "amal@example.ae", "customer-9")
    expect(JSON.stringify((await rawLog()).map((event) => event.data))).not.toContain("amal@example.ae")
    const run = await cli(["forget", "payer", "--stream", streamId, "--by", "dpo", ...args])
    expect(run.stderr).toBe("")
    expect(run.stdout).toMatch(/^forgot payer:[0-9a-f]{64}: 1 data key\(s\) destroyed/)
    const shown = await cli(["show", streamId, "--json", ...args])
    expect(shown.stdout).toContain(`"email":"${forgotten}"`)
    expect(shown.stdout).toContain(`"customerId":"${forgotten}"`)
    expect(shown.stdout).not.toContain("amal@example.ae")
    expect((await cli(["replay", ...args])).code).toBe(exitCodes.ok)
  })

  it("refuses a forget without KIND:VALUE or --by, saying what is missing", async () => {
    expect((await cli(["forget", "4111111111111111", "--by", "dpo", ...args])).stderr).toContain(
      "forget needs KIND:VALUE",
    )
    expect((await cli(["forget", "card:4111111111111111", ...args])).stderr).toContain("forget needs --by NAME")
    expect((await cli(["forget", "payer:x", "--stream", "acquiring-1-M-1", "--by", "dpo", ...args])).stderr).toContain(
      "forget --stream STREAM needs a KIND alone",
    )
  })

  it("refuses to open a sealed store without its master key file, naming the setting", async () => {
    const run = await cli([
      "replay",
      "--store",
      `sqlite:${storePath}`,
      "--master-key-file",
      join(folder.dir, "none.json"),
    ])
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr).toContain("--master-key-file or MIZAN_MASTER_KEY_FILE")
  })

  it.each([["replay"], ["forget", "card:4111111111111111", "--by", "dpo@example.ae"]])(
    "refuses a master key file that does not read, naming it and the setting, in %s",
    async (...command) => {
      const run = await cli([...command, "--store", `sqlite:${storePath}`, "--master-key-file", folder.dir])
      expect(run.code).toBe(exitCodes.failed)
      expect(run.stderr).toBe(
        `mizan-audit: cannot read the master key file ${folder.dir} (--master-key-file or MIZAN_MASTER_KEY_FILE): is a folder, not a file\n`,
      )
    },
  )
})

/** `access --json` as a script reads it. */
interface AccessAnswer {
  readonly subjectId: string
  readonly held: boolean
  readonly forgotten: ReadonlyArray<{ readonly at: string; readonly by: string }>
  readonly streams: ReadonlyArray<string>
  readonly events: ReadonlyArray<{
    readonly streamId: string
    readonly streamVersion: number
    readonly type: string
    readonly data: Record<string, unknown>
  }>
}

/** The values at the ends of a JSON value's objects and lists: a sealed field may sit deep (a notification's `order.cardNumber`). */
const leavesOf = (value: unknown): ReadonlyArray<unknown> =>
  typeof value === "object" && value !== null ? Object.values(value).flatMap(leavesOf) : [value]

describe("access", () => {
  it("lists the streams and events that hold a card's data, with the card's fields in clear and no other data", async () => {
    const cardNumber = cardNumberOf(otherCard)
    const run = await cli(["access", `card:${cardNumber}`, "--json", ...args])
    expect([run.code, run.stderr]).toEqual([exitCodes.ok, ""])
    const answer = JSON.parse(run.stdout) as AccessAnswer
    expect(answer).toMatchObject({ subjectId: expect.stringMatching(/^card:[0-9a-f]{64}$/), held: true, forgotten: [] })
    expect(answer.streams).toContain(otherCard.streamId)
    const placed = answer.events.find((event) => event.streamId === otherCard.streamId && event.streamVersion === 1)
    const {
      cardNumber: _,
      cardLast4,
      expiryYear,
      expiryMonth,
      firstName,
      lastName,
      amount,
    } = otherCard.data as Record<string, unknown>
    expect(amount).toBeDefined()
    // The card's own fields, as the domain reads them, and nothing else of the event (not its amount).
    expect(placed).toMatchObject({ type: "BankCardTransferPlaced" })
    expect(placed?.data).toEqual(
      Object.fromEntries(
        Object.entries({ cardNumber, cardLast4, expiryYear, expiryMonth, firstName, lastName }).filter(
          ([, value]) => value !== undefined,
        ),
      ),
    )
    // Only events that hold this card: the first card's transfer is not among them.
    expect(answer.streams).not.toContain(card.streamId)

    const text = await cli(["access", `card:${cardNumber}`, ...args])
    expect(text.code).toBe(exitCodes.ok)
    const lines = text.stdout.split("\n")
    const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`
    expect(lines[0]).toBe(
      `${answer.subjectId}: ${counted(answer.events.length, "event")} in ${counted(answer.streams.length, "stream")} hold its data`,
    )
    expect(lines).toContain(otherCard.streamId)
    expect(text.stdout).toContain(`"cardLast4":"${cardLast4}"`)
  })

  it("lists a member's account stream under its keyed id, by the event that holds the member's identity", async () => {
    const { memberIdDigest } = memberOpened.data as { memberIdDigest: string }
    const run = await cli(["access", `member:${memberIdDigest}`, "--json", ...args])
    expect([run.code, run.stderr]).toEqual([exitCodes.ok, ""])
    const answer = JSON.parse(run.stdout) as AccessAnswer
    expect(memberOpened.streamId).toMatch(/^memberAccount\/keyed:/)
    expect(answer.events).toContainEqual(
      expect.objectContaining({
        streamId: memberOpened.streamId,
        type: "MemberAccountOpened",
        data: expect.objectContaining({ memberIdDigest }),
      }),
    )
  })

  it("says that a forgotten card's data cannot be shown, naming when and by whom, and still lists where it was", async () => {
    const run = await cli(["access", `card:${cardNumberOf(card)}`, ...args])
    expect([run.code, run.stderr]).toEqual([exitCodes.ok, ""])
    expect(run.stdout.split("\n")[0]).toMatch(
      /^card:[0-9a-f]{64} was forgotten at \S+ by dpo@example\.ae: no data can be shown; [0-9]+ events? in [0-9]+ streams? held its data, whose fields read \[forgotten\]$/,
    )
    expect(run.stdout).toContain(card.streamId)
    expect(run.stdout).not.toContain(cardNumberOf(card))
    const json = JSON.parse(
      (await cli(["access", `card:${cardNumberOf(card)}`, "--json", ...args])).stdout,
    ) as AccessAnswer
    expect(json.forgotten).toEqual([{ at: expect.any(String), by: "dpo@example.ae" }])
    expect(json.events.length).toBeGreaterThan(0)
    for (const event of json.events) for (const value of leavesOf(event.data)) expect(value).toBe(forgotten)
  })

  it("answers for the payer of an order created without an eid by the order's stream: its email and customer id", async () => {
    const streamId = await appendOrderWithoutEid("no-eid-2", "noor@example.ae", "customer-10")
    const run = await cli(["access", "payer", "--stream", streamId, "--json", ...args])
    expect([run.code, run.stderr]).toEqual([exitCodes.ok, ""])
    const answer = JSON.parse(run.stdout) as AccessAnswer
    expect(answer.streams).toEqual([streamId])
    expect(answer.events).toEqual([
      expect.objectContaining({
        type: "OrderCreated",
        data: {
          request: { paySceneParams: { email: "noor@example.ae", customerId: "customer-10" } },
          paySceneParams: { email: "noor@example.ae", customerId: "customer-10" },
        },
      }),
    ])
    const never = await cli(["access", "card", "--stream", streamId, ...args])
    expect([never.code, never.stdout]).toEqual([
      exitCodes.nothingHeld,
      `no event of ${streamId} holds a card of its own, nor was one ever forgotten\n`,
    ])
  })

  it("says plainly, with 3, that the store never held a subject: a card number with its dashes names nobody", async () => {
    const run = await cli(["access", "card:4111-1111-1111-1111", ...args])
    expect([run.code, run.stderr]).toEqual([exitCodes.nothingHeld, ""])
    expect(run.stdout).toMatch(/^no event holds data of card:[0-9a-f]{64}, nor was it ever forgotten\. Is VALUE /)
    expect(run.stdout).not.toContain("4111")
  })

  it("refuses a KIND no event holds, a stream the store does not hold, and a store that seals nothing, with 2", async () => {
    const crad = await cli(["access", "crad:4111111111111111", ...args])
    expect([crad.code, crad.stderr.split("\n")[0]]).toEqual([
      exitCodes.failed,
      'mizan-audit: access KIND must be one of card, iban, member, payer, remitter, not "crad"',
    ])
    const stream = await cli(["access", "payer", "--stream", "acquiring-2-M1-NO-SUCH-ORDER", ...args])
    expect([stream.code, stream.stderr]).toEqual([
      exitCodes.failed,
      "mizan-audit: the store holds no stream acquiring-2-M1-NO-SUCH-ORDER: name the order's stream as show names it\n",
    ])
    const plainPath = join(folder.dir, "never-sealed.db")
    await withSqliteStore(plainPath, generateHistory({ seed: 31, events: 50 }))
    const plain = await cli([
      "access",
      "card:4111111111111111",
      "--store",
      `sqlite:${plainPath}`,
      "--master-key-file",
      masterKeyFile,
    ])
    expect([plain.code, plain.stderr]).toEqual([
      exitCodes.failed,
      `mizan-audit: sqlite:${plainPath} seals no personal data (written before sealing, or without a key table): access finds a subject by its sealed fields only; seal the store first (import --seal)\n`,
    ])
  })
})

describe("another master key file", () => {
  it.each([["replay"], ["forget", "card:4111111111111111", "--by", "dpo"], ["access", "card:4111111111111111"]])(
    "is refused as the key file's fault in %s, naming it and the setting, not the store's",
    async (...command) => {
      const otherKeys = join(folder.dir, "other-master-keys.json")
      writeMasterKeyFile(otherKeys, [newMasterKey()])
      const run = await cli([...command, "--store", `sqlite:${storePath}`, "--master-key-file", otherKeys])
      // The line names the file, its setting and what the key ring said (the data key's and master key's ids between).
      const names = `mizan-audit: the master key file ${otherKeys} (--master-key-file or MIZAN_MASTER_KEY_FILE) does not open the store's data keys: unwrapping data key `
      const why = " is not in the key ring (retired, or another key file)\n"
      expect([run.code, run.stdout, run.stderr.slice(0, names.length), run.stderr.slice(-why.length)]).toEqual([
        exitCodes.failed,
        "",
        names,
        why,
      ])
    },
  )
})

describe("rotate-master-key", () => {
  it("re-wraps every data key under a new master key, retires the old one, and the store still replays clean", async () => {
    const before = readMasterKeyFile(masterKeyFile).map((key) => key.id)
    const run = await cli(["rotate-master-key", "--retire", ...args])
    expect(run.stderr).toBe("")
    expect(run.code).toBe(exitCodes.ok)
    const after = readMasterKeyFile(masterKeyFile).map((key) => key.id)
    expect(after).toHaveLength(1)
    expect(before).not.toContain(after[0])
    expect(run.stdout).toContain(`master key ${after[0]} is current`)
    expect(run.stdout).toContain(`retired ${before.join(", ")}`)
    expect((await cli(["replay", ...args])).code).toBe(exitCodes.ok)
  }, 60_000)
})

/** What a reader sees of a log, positions aside: they are each store's own. */
const asRead = (log: ReadonlyArray<RecordedEvent>) => log.map(({ globalPosition: _, chainHash: __, ...event }) => event)

describe("export and import of a sealed store", () => {
  it("carry the data keys and the sealed events as stored: the new store opens every event and keeps the chain", async () => {
    const exportPath = join(folder.dir, "sealed.ndjson")
    expect((await cli(["export", "--out", exportPath, ...args])).code).toBe(exitCodes.ok)
    const file = readFileSync(exportPath, "utf8")
    const { cardNumber } = card.data as Record<string, string>
    expect(file).toContain('{"subjectKey":')
    expect(file).not.toContain(cardNumber)
    const targetPath = join(folder.dir, "imported.db")
    const imported = await cli([
      "import",
      exportPath,
      "--store",
      `sqlite:${targetPath}`,
      "--master-key-file",
      masterKeyFile,
    ])
    expect(imported.stderr).toBe("")
    expect(imported.stdout).toMatch(/, [1-9][0-9]* data keys and 0 signed heads\n$/)
    const source = await rawLogOf(storePath)
    const target = await rawLogOf(targetPath)
    expect(target.map((event) => event.chainHash)).toEqual(source.map((event) => event.chainHash))
    expect(asRead(await opened(targetPath))).toEqual(asRead(await opened(storePath)))
    expect((await cli(["replay", "--store", `sqlite:${targetPath}`, "--master-key-file", masterKeyFile])).code).toBe(
      exitCodes.ok,
    )
  })

  it("refuses a sealed export without the master key file, naming the setting and writing nothing", async () => {
    const exportPath = join(folder.dir, "sealed-again.ndjson")
    await cli(["export", "--out", exportPath, ...args])
    const targetPath = join(folder.dir, "refused.db")
    // None given, and none where the default points (data/master-keys.json, from the folder the command starts in).
    const run = await cli(["import", exportPath, "--store", `sqlite:${targetPath}`], { cwd: folder.dir })
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr).toContain("give the master key file that wraps the data keys")
    expect(await rawLogOf(targetPath)).toEqual([])
  })

  it("refuses a master key file given and missing, naming it, rather than ask for one at the first sealed event", async () => {
    const exportPath = join(folder.dir, "sealed-again.ndjson")
    await cli(["export", "--out", exportPath, ...args])
    const targetPath = join(folder.dir, "refused-given.db")
    const missing = join(folder.dir, "no-such-keys.json")
    for (const given of [
      { argv: ["--master-key-file", missing], env: {} },
      { argv: [], env: { MIZAN_MASTER_KEY_FILE: missing } },
    ]) {
      const run = await cli(["import", exportPath, "--store", `sqlite:${targetPath}`, ...given.argv], {
        env: given.env,
      })
      expect([run.code, run.stdout, run.stderr]).toEqual([
        exitCodes.failed,
        "",
        `mizan-audit: the master key file ${missing} does not exist: set --master-key-file or MIZAN_MASTER_KEY_FILE to the file that holds the master keys (only sandbox mode makes one)\n`,
      ])
      expect(existsSync(targetPath)).toBe(false)
    }
  })

  it("with --seal, seal a store written before sealing into a new one: no card digest left in its file, the same events read back", async () => {
    const plainPath = join(folder.dir, "plain.db")
    await withSqliteStore(plainPath, generateHistory({ seed: 29, events: 400 }))
    const plain = await rawLogOf(plainPath)
    const digests = plain
      .filter((event) => event.type === "BankCardTransferPlaced")
      .map((event) => (event.data as { cardNumber: string }).cardNumber)
    expect(digests.length).toBeGreaterThan(0)
    const exportPath = join(folder.dir, "plain.ndjson")
    expect((await cli(["export", "--out", exportPath, "--store", `sqlite:${plainPath}`])).code).toBe(exitCodes.ok)
    const sealedPath = join(folder.dir, "resealed.db")
    const imported = await cli([
      "import",
      exportPath,
      "--seal",
      "--store",
      `sqlite:${sealedPath}`,
      "--master-key-file",
      masterKeyFile,
    ])
    expect(imported.stderr).toBe("")
    const bytes = readFileSync(sealedPath)
    for (const digest of digests) expect(bytes.includes(digest)).toBe(false)
    const sealedLog = await rawLogOf(sealedPath)
    expectChained(sealedLog)
    // Member account streams are stored under keyed ids; every other stream, and every event's data, reads back as it was.
    const readBack = asRead(await opened(sealedPath)).filter((event) => !event.streamId.startsWith("memberAccount/"))
    const before = asRead(plain).filter((event) => !event.streamId.startsWith("memberAccount/"))
    expect(readBack).toEqual(before)
    expect((await cli(["replay", "--store", `sqlite:${sealedPath}`, "--master-key-file", masterKeyFile])).code).toBe(
      exitCodes.ok,
    )
  })

  it("with --seal and no master key file, refuses before creating the store, naming the file and where its path came from", async () => {
    const targetPath = join(folder.dir, "unkeyed.db")
    const missing = join(folder.dir, "no-such-keys.json")
    const importing = ["import", join(folder.dir, "plain.ndjson"), "--seal", "--store", `sqlite:${targetPath}`]
    for (const given of [
      { argv: ["--master-key-file", missing], env: {}, path: missing, namedBy: "--master-key-file" },
      { argv: [], env: { MIZAN_MASTER_KEY_FILE: missing }, path: missing, namedBy: "MIZAN_MASTER_KEY_FILE" },
      {
        argv: [],
        env: {},
        path: join(folder.dir, "data", "master-keys.json"),
        namedBy: "the default: neither --master-key-file nor MIZAN_MASTER_KEY_FILE is set",
      },
    ]) {
      const run = await cli([...importing, ...given.argv], { env: given.env, cwd: folder.dir })
      expect([run.code, run.stdout, run.stderr.split("\n")[0]]).toEqual([
        exitCodes.failed,
        "",
        `mizan-audit: import --seal needs the master key file, and there is none at ${given.path} (${given.namedBy}): without it the file would be stored in clear`,
      ])
      expect(existsSync(targetPath)).toBe(false)
    }
  })

  it.effect("with seal, a store without a key table refuses the import instead of storing the file in clear", () =>
    Effect.gen(function* () {
      const refused = yield* Effect.flip(importLog(join(folder.dir, "plain.ndjson"), { seal: true })).pipe(
        Effect.provideService(EventStore, makeMemoryEventStore()),
      )
      expect(refused.message).toContain("import --seal needs the target store's key table")
    }),
  )

  it("with --seal, refuses a store that already holds events", async () => {
    const run = await cli(["import", join(folder.dir, "plain.ndjson"), "--seal", ...args])
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr).toContain("import it into an empty store")
  })
})
