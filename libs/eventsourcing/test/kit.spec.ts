/**
 * The property-testing kit's base (`histories.ts`, `laws.ts`) on the budget
 * decider: histories are what the real decider decides, retries and orders
 * are what they say, and each law throws LawBroken on a decider broken on
 * purpose, naming the rule and the step.
 */
import { it } from "@effect/vitest"
import { test } from "@fast-check/vitest"
import { Effect, Result } from "effect"
import fc from "fast-check"
import { describe, expect } from "vitest"
import { CommandLocks, EventStore, handleCommand, layerMemory, loadAggregate, StreamLocks } from "../src/index.ts"
import {
  type BudgetCommand,
  type BudgetState,
  budget,
  historyOf,
  inAnyOrder,
  LawBroken,
  lifecycleHolds,
  racingStore,
  readEvents,
  retriesDecideNothing,
  retriesRightAfterDecideNothing,
  rulesHoldThroughout,
  transitionsAllowed,
  validHistories,
  withRetries,
} from "../src/testing/index.ts"

const fund = (amount: number): BudgetCommand => ({ _tag: "Fund", amount })
const spend = (amount: number, reference: string): BudgetCommand => ({ _tag: "Spend", amount, reference })

const command: fc.Arbitrary<BudgetCommand> = fc.oneof(
  fc.integer({ min: 1, max: 100 }).map(fund),
  fc
    .record({ amount: fc.integer({ min: 1, max: 150 }), reference: fc.constantFrom("r1", "r2", "r3", "r4") })
    .map(({ amount, reference }) => spend(amount, reference)),
)
const sequences = fc.array(command, { minLength: 1, maxLength: 12 })

/** A budget funded when it opens, so that spends alone (each with its reference, so safe to retry) make a history. */
const funded = { ...budget, initialState: { balance: 300, references: new Set<string>() } }
const spends = fc.array(
  command.filter((c) => c._tag === "Spend"),
  { minLength: 1, maxLength: 12 },
)

/** What a property run threw: fast-check wraps the error a property threw as its cause. */
const failureOf = (run: () => void): unknown => {
  try {
    run()
  } catch (error) {
    return (error as { readonly cause?: unknown }).cause ?? error
  }
  return undefined
}

/** The budget's one rule, as its invariants would say it. */
const neverOverspent = (state: BudgetState) => (state.balance < 0 ? [`balance ${state.balance}`] : [])
const budgetRulesHold = rulesHoldThroughout(budget, neverOverspent, "the budget is never overspent")

/** A budget whose evolve adds what is spent: the balance it reports is wrong. */
const addsSpending = {
  ...budget,
  evolve: (state: BudgetState, event: Parameters<typeof budget.evolve>[1]): BudgetState =>
    event._tag === "Spent"
      ? { balance: state.balance - 2 * event.amount, references: state.references }
      : budget.evolve(state, event),
}

/** A budget that forgets references: a repeated spend is taken twice. */
const forgetsReferences = {
  ...budget,
  decide: (command: BudgetCommand, state: BudgetState) => budget.decide(command, { ...state, references: new Set() }),
}

describe("historyOf", () => {
  it("keeps the events the decider accepted and leaves the refused commands out of them", () => {
    const history = historyOf(budget)([fund(100), spend(30, "r1"), spend(500, "r2"), spend(30, "r1")])
    expect(history.events).toEqual([
      { _tag: "Funded", amount: 100 },
      { _tag: "Spent", amount: 30, reference: "r1" },
    ])
    expect(history.appends).toEqual([
      [{ _tag: "Funded", amount: 100 }],
      [{ _tag: "Spent", amount: 30, reference: "r1" }],
    ])
    expect(history.commands).toHaveLength(4)
    expect(Result.isFailure(history.steps[2]?.decided ?? Result.succeed([]))).toBe(true)
    expect(history.state.balance).toBe(70)
  })

  it("of no commands is the initial state", () => {
    expect(historyOf(budget)([]).state).toBe(budget.initialState)
  })
})

describe("validHistories", () => {
  test.prop([validHistories(budget, sequences)], { numRuns: 100 })(
    "are the events the real decider decides, folding to the history's state",
    (history) => {
      expect(history).toEqual(historyOf(budget)(history.commands))
      expect(history.events.reduce(budget.evolve, budget.initialState)).toEqual(history.state)
    },
  )
})

describe("withRetries", () => {
  test.prop([withRetries(budget, sequences)], { numRuns: 100 })(
    "sends accepted commands again, each after its original, and nothing else",
    (history) => {
      const original = history.commands.filter((c, i) => history.commands.indexOf(c) === i)
      const retried = history.commands.filter((c, i) => history.commands.indexOf(c) !== i)
      const accepted = historyOf(budget)(original).steps.filter(
        (s) => Result.isSuccess(s.decided) && s.decided.success.length > 0,
      )
      for (const retry of retried) expect(accepted.map((s) => s.command)).toContain(retry)
      if (accepted.length > 0) expect(retried.length).toBeGreaterThan(0)
    },
  )

  it("sends a retry both right after its original and after later commands", () => {
    const sample = fc.sample(withRetries(budget, fc.constant([fund(10), fund(20), fund(30)])), {
      numRuns: 200,
      seed: 7,
    })
    const gaps = new Set(
      sample.flatMap((h) =>
        h.commands.flatMap((c, i) => {
          const first = h.commands.indexOf(c)
          return first === i ? [] : [i - first]
        }),
      ),
    )
    expect(gaps.has(1)).toBe(true)
    expect([...gaps].some((gap) => gap > 1)).toBe(true)
  })
})

describe("withRetries right after the original only", () => {
  test.prop([withRetries(budget, sequences, { commandsLaterMax: 0 })], { numRuns: 100 })(
    "sends every retry directly after its original or after another retry of it",
    (history) => {
      history.commands.forEach((command, i) => {
        const first = history.commands.indexOf(command)
        if (first !== i) expect(history.commands.slice(first, i + 1).every((c) => c === command)).toBe(true)
      })
    },
  )
})

describe("inAnyOrder", () => {
  const commands = [spend(1, "a"), spend(2, "b"), spend(3, "c")]
  test.prop([inAnyOrder(commands)], { numRuns: 50 })("is every command once", (order) => {
    expect([...order].sort((a, b) => a.amount - b.amount)).toEqual(commands)
  })

  it("reaches every order", () => {
    const orders = new Set(fc.sample(inAnyOrder(commands), { numRuns: 300, seed: 3 }).map((o) => JSON.stringify(o)))
    expect(orders.size).toBe(6)
  })
})

describe("rulesHoldThroughout", () => {
  test.prop([validHistories(budget, sequences)], { numRuns: 100 })("holds for the real budget", (history) => {
    expect(budgetRulesHold(history.events)).toEqual(history.state)
    expect(budgetRulesHold(history.appends)).toEqual(history.state)
  })

  it("checks an append after its last event, and a bare event after itself", () => {
    const overdrawnThenFunded = [
      { _tag: "Spent", amount: 5, reference: "r1" },
      { _tag: "Funded", amount: 10 },
    ] as const
    expect(budgetRulesHold([overdrawnThenFunded]).balance).toBe(5)
    expect(failureOf(() => budgetRulesHold(overdrawnThenFunded))).toMatchObject({ step: 1, what: "Spent" })
    expect(
      failureOf(() => budgetRulesHold([[{ _tag: "Funded", amount: 1 }], overdrawnThenFunded.slice(0, 1)])),
    ).toMatchObject({
      step: 2,
      what: "Spent",
    })
  })

  it("throws LawBroken naming the law, the rule and the event when evolve is broken", () => {
    const history = historyOf(addsSpending)([fund(100), spend(30, "r1"), spend(30, "r2")])
    const broken = failureOf(() =>
      rulesHoldThroughout(addsSpending, neverOverspent, "the budget is never overspent")(history.events),
    )
    expect(broken).toBeInstanceOf(LawBroken)
    expect(broken).toMatchObject({ law: "the budget is never overspent", rule: "balance -20", step: 3, what: "Spent" })
    expect(String(broken)).toContain('step 3 (Spent) breaks "balance -20"')
  })

  it("names the event an evolve throws on, as a broken law", () => {
    const strict = {
      ...budget,
      evolve: (state: BudgetState, event: Parameters<typeof budget.evolve>[1]) => {
        if (event._tag === "Spent" && !state.references.has("opened")) throw new Error("Spent before the budget opened")
        return budget.evolve(state, event)
      },
    }
    expect(
      failureOf(() =>
        rulesHoldThroughout(
          strict,
          neverOverspent,
        )([
          { _tag: "Funded", amount: 5 },
          { _tag: "Spent", amount: 1, reference: "r" },
        ]),
      ),
    ).toMatchObject({
      name: "LawBroken",
      rule: "every event fits the state before it",
      step: 2,
      what: "Spent",
      detail: "Spent before the budget opened",
    })
  })

  it("finds the broken evolve in random histories too", () => {
    const law = rulesHoldThroughout(addsSpending, neverOverspent)
    expect(
      failureOf(() =>
        fc.assert(
          fc.property(validHistories(addsSpending, sequences), (h) => void law(h.events)),
          { seed: 1 },
        ),
      ),
    ).toBeInstanceOf(LawBroken)
  })
})

describe("retriesDecideNothing", () => {
  test.prop([withRetries(funded, spends)], { numRuns: 100 })("holds for spends, which name a reference", (history) => {
    retriesDecideNothing(funded)(history.commands)
  })

  it("finds that a Fund, which names no reference, is taken again when retried", () => {
    expect(
      failureOf(() =>
        fc.assert(
          fc.property(withRetries(budget, sequences), (h) => retriesDecideNothing(budget)(h.commands)),
          {
            seed: 1,
          },
        ),
      ),
    ).toMatchObject({ name: "LawBroken", what: "Fund" })
  })

  it("throws LawBroken at the retry a decider takes twice", () => {
    expect(() =>
      retriesDecideNothing(forgetsReferences)([fund(100), spend(30, "r1"), fund(5), spend(30, "r1")]),
    ).toThrow(expect.objectContaining({ name: "LawBroken", step: 4, what: "Spend" }))
  })

  it("counts a command equal to an accepted one as its retry, and lets a refused one be sent again", () => {
    expect(() => retriesDecideNothing(forgetsReferences)([fund(100), spend(30, "r1"), spend(30, "r1")])).toThrow(
      LawBroken,
    )
    retriesDecideNothing(budget)([spend(30, "r1"), fund(100), spend(30, "r1")])
  })

  it("right after only (retriesRightAfterDecideNothing): an equal command after another is not a retry", () => {
    const spendFundSpend = [fund(100), spend(30, "r1"), fund(5), spend(30, "r1")]
    expect(() => retriesDecideNothing(forgetsReferences)(spendFundSpend)).toThrow(LawBroken)
    retriesRightAfterDecideNothing(forgetsReferences)(spendFundSpend)
    expect(() =>
      retriesRightAfterDecideNothing(forgetsReferences)([fund(100), spend(30, "r1"), spend(30, "r1")]),
    ).toThrow(expect.objectContaining({ name: "LawBroken", step: 3, what: "Spend" }))
    // A decider that lets the first retry go and takes the second: both retries come right after the original.
    let retriesSeen = 0
    const takesSecondRetry = {
      ...funded,
      decide: (command: Parameters<typeof funded.decide>[0], state: Parameters<typeof funded.decide>[1]) =>
        command._tag === "Spend" && state.references.has(command.reference) && ++retriesSeen < 2
          ? funded.decide(command, state)
          : forgetsReferences.decide(command, state),
    }
    expect(() =>
      retriesRightAfterDecideNothing(takesSecondRetry)([fund(100), spend(30, "r1"), spend(30, "r1"), spend(30, "r1")]),
    ).toThrow(expect.objectContaining({ name: "LawBroken", step: 4, what: "Spend" }))
  })

  it("finds the forgetful decider among random retries", () => {
    const forgetful = { ...forgetsReferences, initialState: funded.initialState }
    expect(
      failureOf(() =>
        fc.assert(
          fc.property(withRetries(forgetful, spends), (h) => retriesDecideNothing(forgetful)(h.commands)),
          { seed: 1 },
        ),
      ),
    ).toMatchObject({ name: "LawBroken", what: "Spend" })
  })
})

describe("transitionsAllowed", () => {
  type Level = "EMPTY" | "FUNDED"
  const levelOf = (state: BudgetState): Level => (state.balance > 0 ? "FUNDED" : "EMPTY")

  it("holds while every change of status is allowed, and names the first one that is not", () => {
    const events = historyOf(budget)([fund(10), spend(10, "r1"), fund(5)]).events
    expect(transitionsAllowed(budget, levelOf, { EMPTY: ["FUNDED"], FUNDED: ["EMPTY"] })(events).balance).toBe(5)
    expect(() => transitionsAllowed(budget, levelOf, { EMPTY: ["FUNDED"], FUNDED: [] }, "funds stay")(events)).toThrow(
      expect.objectContaining({ law: "funds stay", step: 2, what: "Spent", detail: "FUNDED → EMPTY" }),
    )
  })
})

describe("lifecycleHolds", () => {
  type Phase = "OPEN" | "SPENT"
  const phases = lifecycleHolds<Parameters<typeof budget.evolve>[1], Phase>(
    "OPEN",
    (event, before) => (event._tag === "Spent" ? "SPENT" : before),
    { OPEN: ["SPENT"], SPENT: [] },
    "no funding after a spend",
  )

  it("reads the statuses from the events alone and names the first move it does not allow", () => {
    expect(phases(historyOf(budget)([fund(10), fund(5), spend(3, "r1")]).events)).toBe("SPENT")
    const events = historyOf(budget)([fund(10), spend(3, "r1"), fund(5)]).events
    expect(phases(events)).toBe("SPENT")
    const ordered = lifecycleHolds<Parameters<typeof budget.evolve>[1], Phase>(
      "OPEN",
      (event) => (event._tag === "Spent" ? "SPENT" : "OPEN"),
      { OPEN: ["SPENT"], SPENT: [] },
      "no funding after a spend",
    )
    expect(() => ordered(events)).toThrow(
      expect.objectContaining({ law: "no funding after a spend", step: 3, what: "Funded", detail: "SPENT → OPEN" }),
    )
  })
})

describe("racingStore", () => {
  it.effect("makes commands sent at once read one version and lose appends to each other, each decided again", () =>
    Effect.gen(function* () {
      const { layer, lostRaces } = racingStore()
      // No lock of the caller's: under the layer, the process's stream locks hold nobody back.
      const send = (command: BudgetCommand) => handleCommand(budget, "budget-1", command)
      const balance = yield* Effect.gen(function* () {
        yield* send(fund(100))
        yield* Effect.all(
          [spend(40, "a"), spend(40, "b"), spend(40, "c")].map((c) => Effect.exit(send(c))),
          {
            concurrency: "unbounded",
          },
        )
        return (yield* loadAggregate(budget, "budget-1")).state.balance
      }).pipe(Effect.provide(layer))
      expect(lostRaces()).toBeGreaterThan(0)
      expect(balance).toBe(20)
    }),
  )

  it.effect("lets commands that share stream locks of their own take turns, losing no race", () =>
    Effect.gen(function* () {
      const { layer, lostRaces } = racingStore()
      const oneProcess = new StreamLocks()
      const send = (command: BudgetCommand) =>
        handleCommand(budget, "budget-1", command).pipe(Effect.provideService(CommandLocks, oneProcess))
      yield* Effect.gen(function* () {
        yield* send(fund(100))
        yield* Effect.all([spend(40, "a"), spend(40, "b")].map(send), { concurrency: "unbounded" })
      }).pipe(Effect.provide(layer))
      expect(lostRaces()).toBe(0)
    }),
  )
})

describe("readEvents", () => {
  /** The budget as a domain lib's namespace gives an aggregate: its aggregate and its stream id. */
  const Budget = { aggregate: budget, streamId: (owner: string, year: number) => `budget-${owner}-${year}` }

  it.effect("reads a stream back decoded by the aggregate's codec, old versions through their upcasters", () =>
    Effect.gen(function* () {
      yield* handleCommand(budget, Budget.streamId("ops", 2026), fund(100))
      yield* handleCommand(budget, Budget.streamId("ops", 2026), { _tag: "Spend", amount: 30, reference: "r1" })
      const store = yield* EventStore
      yield* store.append(
        Budget.streamId("ops", 2025),
        [{ type: "Spent", schemaVersion: 1, data: { _tag: "Spent", amount: 20 } }],
        "no_stream",
      )
      expect(yield* readEvents(Budget, "ops", 2026)).toEqual([
        { _tag: "Funded", amount: 100 },
        { _tag: "Spent", amount: 30, reference: "r1" },
      ])
      expect(yield* readEvents(Budget, "ops", 2025)).toEqual([{ _tag: "Spent", amount: 20, reference: "legacy" }])
      expect(yield* readEvents(Budget, "nobody", 2026)).toEqual([])
    }).pipe(Effect.provide(layerMemory)),
  )

  it.effect("fails with the store's Undecodable error naming the stream and version it cannot read", () =>
    Effect.gen(function* () {
      const store = yield* EventStore
      const stream = Budget.streamId("ops", 2024)
      yield* store.append(stream, [{ type: "Funded", schemaVersion: 1, data: { amount: "lots" } }], "no_stream")
      const error = yield* Effect.flip(readEvents(Budget, "ops", 2024))
      expect(error).toMatchObject({ _tag: "StoreError", reason: "Undecodable" })
      expect(error.message).toContain(`${stream}@1`)
    }).pipe(Effect.provide(layerMemory)),
  )
})
