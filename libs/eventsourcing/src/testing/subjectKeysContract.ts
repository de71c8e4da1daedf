/**
 * The key table's contract (forgetting a person): every adapter
 * of `SubjectKeys` runs it, as every EventStore runs `eventStoreContract`.
 */
import { Effect, type Scope } from "effect"
import { describe, expect, it } from "vitest"
import type { SubjectKey, SubjectKeysShape } from "../sealing/SubjectKeys.ts"

const key = (keyId: string, subjectId: string, masterKeyId = "mk-1"): SubjectKey => ({
  keyId,
  subjectId,
  wrappedKey: `wrapped-${keyId}`,
  masterKeyId,
  createdAt: 1_767_225_600_000,
})

/** Three subjects' keys, added out of id order, and the second subject (card:b, k2) forgotten at 7 by "dpo". */
const threeKeysOneForgotten = (keys: SubjectKeysShape) =>
  Effect.all([
    keys.addKey(key("k3", "card:c")),
    keys.addKey(key("k1", "card:a")),
    keys.addKey(key("k2", "card:b")),
    keys.forget("card:b", 7, "dpo"),
  ])

export const subjectKeysContract = (name: string, open: Effect.Effect<SubjectKeysShape, unknown, Scope.Scope>) => {
  const run = <A>(body: (keys: SubjectKeysShape) => Effect.Effect<A, unknown>) =>
    Effect.runPromise(Effect.scoped(Effect.flatMap(open, body)))

  describe(`SubjectKeys contract: ${name}`, () => {
    it("answers the key it added, by subject and by id", async () => {
      const [live, byId] = await run((keys) =>
        Effect.andThen(keys.addKey(key("k1", "card:a")), () =>
          Effect.all([keys.liveKeyOf("card:a"), keys.keyById("k1")]),
        ),
      )
      expect(live).toEqual(key("k1", "card:a"))
      expect(byId).toEqual(key("k1", "card:a"))
    })

    it("answers the keys of many ids in one lookup, forgotten ones too, leaving out ids it does not hold", async () => {
      const [found, none] = await run((keys) =>
        Effect.andThen(threeKeysOneForgotten(keys), () =>
          Effect.all([keys.keysById(["k3", "missing", "k2", "k3"]), keys.keysById([])]),
        ),
      )
      expect([...found].sort((a, b) => (a.keyId < b.keyId ? -1 : 1))).toEqual([
        {
          keyId: "k2",
          subjectId: "card:b",
          masterKeyId: "mk-1",
          createdAt: 1_767_225_600_000,
          forgottenAt: 7,
          forgottenBy: "dpo",
        },
        key("k3", "card:c"),
      ])
      expect(none).toEqual([])
    })

    it("keeps the first live key of a subject when a second writer adds another", async () => {
      const [first, second] = await run((keys) =>
        Effect.all([keys.addKey(key("k1", "card:a")), keys.addKey(key("k2", "card:a"))]),
      )
      expect(first.keyId).toBe("k1")
      expect(second.keyId).toBe("k1")
    })

    it("destroys a forgotten subject's key, keeps who and when, and forgets nothing a second time", async () => {
      const [destroyed, again, row, live] = await run((keys) =>
        Effect.andThen(Effect.all([keys.addKey(key("k1", "card:a")), keys.addKey(key("k2", "card:b"))]), () =>
          Effect.all([
            keys.forget("card:a", 1_767_225_700_000, "dpo@example.ae"),
            keys.forget("card:a", 1_767_225_800_000, "someone else"),
            keys.keyById("k1"),
            keys.liveKeyOf("card:b"),
          ]),
        ),
      )
      expect(destroyed).toBe(1)
      expect(again).toBe(0)
      expect(row?.wrappedKey).toBeUndefined()
      expect(row).toMatchObject({ forgottenAt: 1_767_225_700_000, forgottenBy: "dpo@example.ae" })
      expect(live?.wrappedKey).toBe("wrapped-k2")
    })

    it("gives a forgotten subject a new key when it comes back", async () => {
      const live = await run((keys) =>
        Effect.andThen(keys.addKey(key("k1", "card:a")), () =>
          Effect.andThen(keys.forget("card:a", 1, "dpo"), () => keys.addKey(key("k2", "card:a"))),
        ),
      )
      expect(live.keyId).toBe("k2")
    })

    it("pages every key, forgotten ones too, and takes a forgotten key as an import brings it", async () => {
      const [all, imported] = await run((keys) =>
        Effect.andThen(
          Effect.all([
            keys.addKey(key("k1", "card:a")),
            keys.forget("card:a", 5, "dpo"),
            keys.addKey(key("k2", "card:a")),
            keys.addKey({
              keyId: "k0",
              subjectId: "card:a",
              masterKeyId: "mk-1",
              createdAt: 1,
              forgottenAt: 3,
              forgottenBy: "x",
            }),
          ]),
          () => Effect.all([keys.allKeys("", 10), keys.keyById("k0")]),
        ),
      )
      expect(all.map((k) => [k.keyId, k.wrappedKey !== undefined])).toEqual([
        ["k0", false],
        ["k1", false],
        ["k2", true],
      ])
      expect(all[1]).toMatchObject({ forgottenAt: 5, forgottenBy: "dpo" })
      expect(imported).toEqual({
        keyId: "k0",
        subjectId: "card:a",
        masterKeyId: "mk-1",
        createdAt: 1,
        forgottenAt: 3,
        forgottenBy: "x",
      })
    })

    it("pages the live keys by id and re-wraps only a key still under the master key named", async () => {
      const [page1, page2, moved, stale, row] = await run((keys) =>
        Effect.andThen(threeKeysOneForgotten(keys), () =>
          Effect.all([
            keys.liveKeys("", 1),
            keys.liveKeys("k1", 10),
            keys.rewrap("k1", "mk-1", "rewrapped", "mk-2"),
            keys.rewrap("k3", "mk-0", "rewrapped", "mk-2"),
            keys.keyById("k1"),
          ]),
        ),
      )
      expect(page1.map((k) => k.keyId)).toEqual(["k1"])
      expect(page2.map((k) => k.keyId)).toEqual(["k3"])
      expect(moved).toBe(true)
      expect(stale).toBe(false)
      expect(row).toMatchObject({ wrappedKey: "rewrapped", masterKeyId: "mk-2" })
    })
  })
}
