/**
 * The sandbox's member directory outage switch: one stream per merchant,
 * available until an outage starts; each switch is idempotent, so setting the
 * availability it already has decides nothing.
 */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { MemberAccount } from "../src/index.ts"
import { at } from "./support.ts"

const { directoryOutage, directoryOutageStreamId, directoryOutageStreamPrefix, directoryOutageInvariants } =
  MemberAccount
const now = at("2026-03-01T10:00:00Z")
const down = directoryOutage.evolve(directoryOutage.initialState, { _tag: "MemberDirectoryOutageStarted", at: now })

const decided = (available: boolean, state: MemberAccount.DirectoryAvailability) =>
  Result.getOrThrow(directoryOutage.decide({ available, now }, state))

describe("the member directory outage switch", () => {
  it("starts available", () => expect(directoryOutage.initialState).toEqual({ available: true }))

  it.each<[string, boolean, MemberAccount.DirectoryAvailability, ReadonlyArray<MemberAccount.OutageEvent>]>([
    [
      "starts an outage while available",
      false,
      { available: true },
      [{ _tag: "MemberDirectoryOutageStarted", at: now }],
    ],
    ["ends an outage while down", true, { available: false }, [{ _tag: "MemberDirectoryOutageEnded", at: now }]],
    ["decides nothing when asked for an outage while down", false, { available: false }, []],
    ["decides nothing when asked to end an outage while available", true, { available: true }, []],
  ])("%s", (_, available, state, events) => expect(decided(available, state)).toEqual(events))

  it("is down after a start and available after an end", () => {
    expect(down).toEqual({ available: false })
    expect(directoryOutage.evolve(down, { _tag: "MemberDirectoryOutageEnded", at: now })).toEqual({ available: true })
  })

  it("keeps one stream per merchant under its prefix, and nothing to break", () => {
    expect(directoryOutageStreamId("M1")).toBe("sandboxMemberDirectory/M1")
    expect(directoryOutageStreamPrefix).toBe("sandboxMemberDirectory/")
    expect(directoryOutageInvariants(down)).toEqual([])
  })

  it("reads back both events at version 1", () => {
    for (const event of [
      { _tag: "MemberDirectoryOutageStarted", at: now },
      { _tag: "MemberDirectoryOutageEnded", at: now },
    ] as const) {
      const stored = directoryOutage.codec.encode(event)
      expect(stored).toMatchObject({ type: event._tag, schemaVersion: 1 })
      expect(Result.getOrThrow(directoryOutage.codec.decode(stored))).toEqual(event)
    }
  })
})
