import { fc, test } from "@fast-check/vitest"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { makeEventCodec, type SerializedEvent } from "../src/index.ts"

const Deposited = Schema.TaggedStruct("Deposited", {
  account: Schema.NonEmptyString,
  amountFils: Schema.Int,
  note: Schema.optionalKey(Schema.String),
})
const Closed = Schema.TaggedStruct("Closed", { reason: Schema.String })
const AccountEvent = Schema.Union([Deposited, Closed])

/** Version 1 of Deposited named its amount `fils`. */
const codec = makeEventCodec(AccountEvent, {
  Deposited: { current: 2, upcasters: { 1: ({ fils, ...rest }) => ({ ...rest, amountFils: fils }) } },
  Closed: { current: 1 },
})

/** A schema that transforms a field on the way in: its stored form is not its type. */
const Priced = Schema.TaggedStruct("Priced", { amountFils: Schema.NumberFromString })
const pricedCodec = makeEventCodec(Priced, { Priced: { current: 1 } })

const stored = (type: string, schemaVersion: number, data: unknown): SerializedEvent => ({ type, schemaVersion, data })

describe("an event codec", () => {
  it("decodes an event at its current version", () => {
    const data = { _tag: "Deposited", account: "A-1", amountFils: 1_050, note: "rent" }
    expect(codec.decode(stored("Deposited", 2, data))).toEqual(Result.succeed(data))
  })

  it("encodes an event with its type and current version", () => {
    expect(codec.encode({ _tag: "Closed", reason: "customer asked" })).toEqual(
      stored("Closed", 1, { _tag: "Closed", reason: "customer asked" }),
    )
  })

  it("refuses an event that breaks its schema, naming the field", () => {
    const decoded = codec.decode(stored("Deposited", 2, { _tag: "Deposited", account: "", amountFils: 1_050 }))
    expect(Result.isFailure(decoded) && decoded.failure).toMatch(/^Deposited v2: .*account/)
  })

  it("upcasts an old version step by step before decoding it", () => {
    const event = stored("Deposited", 1, { _tag: "Deposited", account: "A-1", fils: 700 })
    expect(codec.decode(event)).toEqual(Result.succeed({ _tag: "Deposited", account: "A-1", amountFils: 700 }))
  })

  it("adds the type as _tag to data stored without it", () => {
    expect(codec.decode(stored("Closed", 1, { reason: "x" }))).toEqual(Result.succeed({ _tag: "Closed", reason: "x" }))
  })

  it("decodes what a schema transforms on the way in", () => {
    const event = stored("Priced", 1, { _tag: "Priced", amountFils: "1050" })
    expect(pricedCodec.decode(event)).toEqual(Result.succeed({ _tag: "Priced", amountFils: 1_050 }))
  })

  it("drops keys the schema does not name", () => {
    const data = { _tag: "Closed", reason: "customer asked", addedLater: true }
    expect(codec.decode(stored("Closed", 1, data))).toEqual(
      Result.succeed({ _tag: "Closed", reason: "customer asked" }),
    )
  })

  it("refuses unknown types, versions newer than the code, and data that is not an object, saying which", () => {
    const failureOf = (event: SerializedEvent) => {
      const decoded = codec.decode(event)
      return Result.isFailure(decoded) ? decoded.failure : undefined
    }
    expect(failureOf(stored("Reopened", 1, {}))).toBe("unknown event type Reopened")
    expect(failureOf(stored("Closed", 2, { reason: "x" }))).toBe("Closed version 2 is newer than this code knows (1)")
    expect(failureOf(stored("Closed", 1, "Closed"))).toBe("Closed data is not an object")
    expect(failureOf(stored("Closed", 1, null))).toBe("Closed data is not an object")
  })

  /** Stored events as a log holds them: current and old versions, some with a key the schema does not name. */
  const anyValue = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null))
  const maybeExtra = fc.option(fc.record({ addedLater: anyValue }), { nil: {} })
  const wellFormed: fc.Arbitrary<SerializedEvent> = fc.oneof(
    fc
      .tuple(fc.string({ minLength: 1 }), fc.integer(), fc.option(fc.string(), { nil: undefined }), maybeExtra)
      .map(([account, amountFils, note, extra]) =>
        stored("Deposited", 2, {
          _tag: "Deposited",
          account,
          amountFils,
          ...(note === undefined ? {} : { note }),
          ...extra,
        }),
      ),
    fc
      .tuple(fc.string({ minLength: 1 }), fc.integer(), maybeExtra)
      .map(([account, fils, extra]) => stored("Deposited", 1, { _tag: "Deposited", account, fils, ...extra })),
    fc
      .tuple(fc.string(), maybeExtra)
      .map(([reason, extra]) => stored("Closed", 1, { _tag: "Closed", reason, ...extra })),
  )
  /** ...and as a damaged or hand-edited log could hold them: one field, the type or the version changed to anything. */
  const damaged = fc
    .tuple(wellFormed, fc.constantFrom("_tag", "account", "amountFils", "fils", "note", "reason"), anyValue)
    .chain(([event, key, value]) =>
      fc.constantFrom<SerializedEvent>(
        { ...event, data: { ...(event.data as object), [key]: value } },
        { ...event, type: String(value) },
        { ...event, schemaVersion: event.schemaVersion + 1 },
        { ...event, data: value },
      ),
    )
  const storedEvents = fc.oneof(wellFormed, damaged)

  test.prop([storedEvents], { numRuns: 300 })(
    "answers every stored event, whole or damaged, with an event or a reason naming its type, never a throw",
    (event) => {
      const decoded = codec.decode(event)
      if (Result.isSuccess(decoded)) expect(decoded.success._tag).toBe(event.type)
      else expect(decoded.failure).toContain(event.type)
    },
  )

  test.prop([wellFormed])("decodes every well-formed event to what encoding it writes back", (event) => {
    const decoded = codec.decode(event)
    expect(Result.isSuccess(decoded)).toBe(true)
    if (Result.isSuccess(decoded)) expect(codec.decode(codec.encode(decoded.success))).toEqual(decoded)
  })
})
