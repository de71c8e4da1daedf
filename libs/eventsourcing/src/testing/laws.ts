/**
 * Laws as reusable properties: each takes what a platform's code produced
 * (the events of a stream, or the commands it sent) and throws `LawBroken`,
 * naming the rule and the step, when the law does not hold. A law is a plain
 * function, so it goes straight into `fc.property`, `test.prop` or a test of
 * one stream read back from a store:
 *
 *   fc.assert(fc.property(validHistories(budget, spends), (h) => budgetRulesHold(h.events)))
 *   budgetRulesHold(eventsReadBackFromMyStore)
 */
import { Equal, Result } from "effect"
import type { Decider } from "../decider.ts"

/**
 * A law over one stream's events, given one by one or as the appends that
 * wrote them, answering what they fold to. The domain libs' laws are
 * declared with it, so that their declarations name the event type rather
 * than write the whole union out.
 */
export type StreamLaw<Event, Folded> = (appends: Iterable<Event | ReadonlyArray<Event>>) => Folded

/** A law over a stream's events read from the events alone, answering the status they end in. */
export type LifecycleLaw<Event, Status> = (events: Iterable<Event>) => Status

/** A broken rule as an invariant check reports it: a sentence, or the kernel's `{ rule, detail }`. */
export type ReportedRule = string | { readonly rule: string; readonly detail?: string }

/** A law that did not hold: which law, the rule broken, and the step (1 for the first event or command). */
export class LawBroken extends Error {
  override readonly name = "LawBroken"
  readonly law: string
  readonly rule: string
  readonly step: number
  /** The `_tag` of the event or command at that step. */
  readonly what: string
  readonly detail: string | undefined

  constructor(fields: {
    readonly law: string
    readonly rule: string
    readonly step: number
    readonly what: string
    readonly detail?: string | undefined
  }) {
    const detail = fields.detail === undefined || fields.detail === "" ? "" : `: ${fields.detail}`
    super(`${fields.law}: step ${fields.step} (${fields.what}) breaks "${fields.rule}"${detail}`)
    this.law = fields.law
    this.rule = fields.rule
    this.step = fields.step
    this.what = fields.what
    this.detail = fields.detail
  }
}

/**
 * The law a check breaks, or undefined when every law it runs holds: what a
 * test of one's own code looks at, or a report prints. Anything else the
 * check throws is thrown again.
 *
 *   expect(lawBrokenBy(() => refundLimitHolds(events))).toMatchObject({ step: 4 })
 */
export const lawBrokenBy = (check: () => unknown): LawBroken | undefined => {
  try {
    check()
  } catch (error) {
    if (error instanceof LawBroken) return error
    throw error
  }
  return undefined
}

const tagOf = (value: unknown): string =>
  typeof value === "object" && value !== null && "_tag" in value ? String(value._tag) : typeof value

const ruleOf = (reported: ReportedRule) =>
  typeof reported === "string" ? { rule: reported, detail: undefined } : reported

/** `evolve(state, event)`; an evolve that throws on an event off its state (a damaged stream) breaks the law there. */
const evolveOrBreak = <Event, State>(
  evolve: (state: State, event: Event) => State,
  state: State,
  event: Event,
  where: { readonly law: string; readonly step: number },
): State => {
  try {
    return evolve(state, event)
  } catch (error) {
    throw new LawBroken({
      ...where,
      rule: "every event fits the state before it",
      what: tagOf(event),
      detail: error instanceof Error ? error.message : String(error),
    })
  }
}

/**
 * A law over a stream: `check` finds nothing broken in the state after every
 * append, folded with the decider's own `evolve`. Pass the stream's appends
 * (`history.appends`, or what your store wrote in one go each), since one
 * decision may pass through a state no rule is meant for (a wallet transfer
 * placed, then failed at once); a flat list of events is checked after every
 * event. With the lib's `invariants` as the check, it is what the audit runs;
 * a lib's `/testing` entry names its own (`acquiringRulesHold`,
 * `refundLimitHolds`). The step is the number of the event that ended the
 * append (1 for the stream's first). Answers the last state.
 *
 *   const budgetRulesHold = rulesHoldThroughout(budget, (s) => (s.balance < 0 ? ["never overspent"] : []))
 *   budgetRulesHold(history.appends)
 */
export const rulesHoldThroughout =
  <Event, State>(
    decider: Pick<Decider<never, Event, State, unknown>, "evolve" | "initialState">,
    check: (state: State) => ReadonlyArray<ReportedRule>,
    law = "the rules hold after every event",
  ): StreamLaw<Event, State> =>
  (appends) => {
    let state = decider.initialState
    let step = 0
    for (const append of appends) {
      const events: ReadonlyArray<Event> = Array.isArray(append) ? append : [append as Event]
      for (const event of events) {
        step += 1
        state = evolveOrBreak(decider.evolve, state, event, { law, step })
      }
      const broken = check(state)[0]
      if (broken !== undefined) throw new LawBroken({ law, ...ruleOf(broken), step, what: tagOf(events.at(-1)) })
    }
    return state
  }

/**
 * The retry laws' one body: a command equal to an earlier accepted one that
 * counts as its repeat (any of them, or only the one right before) appends
 * no new event.
 */
const repeatsDecideNothing =
  <Command, Event, State, Error>(
    decider: Decider<Command, Event, State, Error>,
    law: string,
    repeats: "of an accepted command" | "right after an accepted command",
  ) =>
  (commands: ReadonlyArray<Command>): void => {
    /** The accepted commands a repeat is compared with: all of them, or the one just before. */
    const originals: Array<Command> = []
    let state = decider.initialState
    commands.forEach((command, i) => {
      const decided = decider.decide(command, state)
      const events = Result.isSuccess(decided) ? decided.success : []
      if (events.length > 0 && originals.some((original) => Equal.equals(original, command)))
        throw new LawBroken({
          law,
          rule: `a repeat ${repeats} appends no new event`,
          step: i + 1,
          what: tagOf(command),
          detail: `decided ${events.map(tagOf).join(", ")} again`,
        })
      // Right after only: a command other than the held original ends its run of retries ([A, A, A] are all A's).
      if (
        repeats === "right after an accepted command" &&
        !originals.some((original) => Equal.equals(original, command))
      )
        originals.length = 0
      if (events.length > 0) originals.push(command)
      state = events.reduce(decider.evolve, state)
    })
  }

/**
 * A law over the commands a platform sent: a command equal to one the decider
 * already accepted (a retry, however late) appends no new event. It may be
 * answered with nothing or refused, never taken twice. `withRetries` makes
 * such sequences.
 *
 *   retriesDecideNothing(AcquiringOrder.aggregate)(history.commands)
 */
export const retriesDecideNothing = <Command, Event, State, Error>(
  decider: Decider<Command, Event, State, Error>,
  law = "a retry of an accepted command decides nothing",
) => repeatsDecideNothing(decider, law, "of an accepted command")

/**
 * `retriesDecideNothing` for a stream whose commands carry no identity of
 * their own, where an equal command later on may be a new one: a
 * notification's attempt record (the same outcome at the same minute may be
 * the next round's attempt, after an operator's resend). A retry is then
 * only a command sent again right after its accepted original, as a writer
 * that retries before it sends anything else sends it; that one appends no
 * new event. `withRetries(..., { commandsLaterMax: 0 })` makes such sequences.
 *
 *   retriesRightAfterDecideNothing(Notification.aggregate)(history.commands)
 */
export const retriesRightAfterDecideNothing = <Command, Event, State, Error>(
  decider: Decider<Command, Event, State, Error>,
  law = "a retry right after an accepted command decides nothing",
) => repeatsDecideNothing(decider, law, "right after an accepted command")

/**
 * A law over a stream's statuses: after every event the status is the one it
 * was or one `allowed` lists for it; a status `allowed` maps to nothing is
 * final. Answers the last state.
 *
 *   const lifecycleHolds = transitionsAllowed(RefundOrder.aggregate, (s) => s.status, {
 *     ABSENT: ["CREATED"], CREATED: ["REFUNDED_SETTLED", "SUCCESS", "FAILURE"], ...
 *   })
 */
export const transitionsAllowed =
  <Event, State, Status extends string>(
    decider: Pick<Decider<never, Event, State, unknown>, "evolve" | "initialState">,
    statusOf: (state: State) => Status,
    allowed: Readonly<Record<Status, ReadonlyArray<Status>>>,
    law = "only the allowed status transitions happen",
  ) =>
  (events: Iterable<Event>): State =>
    rulesHoldThroughout<Event, { readonly state: State; readonly moved: string | undefined }>(
      {
        initialState: { state: decider.initialState, moved: undefined },
        evolve: ({ state }, event) => {
          const after = decider.evolve(state, event)
          const [from, to] = [statusOf(state), statusOf(after)]
          return { state: after, moved: from === to || allowed[from].includes(to) ? undefined : `${from} → ${to}` }
        },
      },
      ({ moved }) => (moved === undefined ? [] : [{ rule: "only the allowed status transitions", detail: moved }]),
      law,
    )(events).state

/**
 * A law over a stream's events read alone, apart from `evolve` (which may
 * tolerate an event off its status, or throw on it): each event leads to
 * the status `statusAfter` names, and only the moves `allowed` lists happen;
 * a status `allowed` maps to nothing is final. Answers the last status.
 *
 *   const refundLifecycleHolds = lifecycleHolds("ABSENT", (e) => statusOf[e._tag], {
 *     ABSENT: ["CREATED"], CREATED: ["REFUNDED_SETTLED", "SUCCESS", "FAILURE"], SUCCESS: [], ...
 *   }, "the refund lifecycle holds")
 */
export const lifecycleHolds = <Event, Status extends string>(
  start: Status,
  statusAfter: (event: Event, before: Status) => Status,
  allowed: Readonly<Record<Status, ReadonlyArray<Status>>>,
  law = "the lifecycle holds",
): LifecycleLaw<Event, Status> =>
  transitionsAllowed<Event, Status, Status>(
    { initialState: start, evolve: (status, event) => statusAfter(event, status) },
    (status) => status,
    allowed,
    law,
  )
