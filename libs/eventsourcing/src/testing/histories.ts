/**
 * Whole histories for property tests, made THROUGH the real decider: a
 * history is the commands sent, what the decider answered to each on the
 * state the earlier ones left, and the events it accepted. Nothing here
 * writes an event by hand, so a history is one the code can really reach.
 *
 * The adversarial shapes a platform's code meets in production are made from
 * valid histories: a request retried at a random later point (`withRetries`)
 * and independent requests arriving in any order (`inAnyOrder`). The laws
 * that a history must keep are in `laws.ts`.
 */
import fc from "fast-check"
import type { Decider } from "../decider.ts"
import { eventsOf, runCommands, type Step } from "./runCommands.ts"

/** What a sequence of commands came to on a decider. */
export interface History<Command, Event, State, Error> {
  /** Every command sent, in order, the refused ones included. */
  readonly commands: ReadonlyArray<Command>
  /** One step per command: the state it met, the decision, the state it left. */
  readonly steps: ReadonlyArray<Step<Command, Event, State, Error>>
  /** The events the decider accepted, in order: what a store would hold. */
  readonly events: ReadonlyArray<Event>
  /** The same events, one array per accepted command: what each append wrote (where the audit checks the rules). */
  readonly appends: ReadonlyArray<ReadonlyArray<Event>>
  /** The state after the last command. */
  readonly state: State
}

/**
 * Folds commands through the decider, each decided on the state the earlier
 * ones left (a refused command changes nothing), keeping what was accepted.
 *
 *   const history = historyOf(AcquiringOrder.aggregate)([createOrder(), payOrder(), reserveRefund()])
 *   history.events.map((e) => e._tag) // ["OrderCreated", "OrderPaid", "RefundReserved"]
 */
export const historyOf =
  <Command, Event, State, Error>(decider: Decider<Command, Event, State, Error>) =>
  (commands: ReadonlyArray<Command>): History<Command, Event, State, Error> => {
    const steps = runCommands(decider, commands)
    const appends = steps.map((step) => eventsOf(step)).filter((events) => events.length > 0)
    return {
      commands,
      steps,
      events: appends.flat(),
      appends,
      state: steps.at(-1)?.after ?? decider.initialState,
    }
  }

/**
 * Histories of random command sequences, decided by the real decider. Each
 * lib's `/testing` entry passes its own sequences (aimed at its limits);
 * fast-check shrinks a failing history by shrinking its commands.
 *
 *   fc.assert(fc.property(validHistories(budget, fc.array(spend)), (history) => ...))
 */
export const validHistories = <Command, Event, State, Error>(
  decider: Decider<Command, Event, State, Error>,
  sequences: fc.Arbitrary<ReadonlyArray<Command>>,
): fc.Arbitrary<History<Command, Event, State, Error>> => sequences.map(historyOf(decider))

export interface RetryOptions {
  /** At most this many retries are added to a sequence; 4 unless said. */
  readonly retriesMax?: number
  /**
   * At most this many later commands may come between a command and its
   * retry; any number unless said. 0 retries right after the original only:
   * what a single writer does after a crash.
   */
  readonly commandsLaterMax?: number
}

/** The positions of the commands the decider took (decided at least one event). */
const acceptedPositions = <Command, Event, State, Error>(
  decider: Decider<Command, Event, State, Error>,
  commands: ReadonlyArray<Command>,
): ReadonlyArray<number> => runCommands(decider, commands).flatMap((step, i) => (eventsOf(step).length > 0 ? [i] : []))

/**
 * Sends accepted commands again, each at a random point after the original:
 * right after it (a client that timed out and retried) or after later
 * commands (a retry that arrives out of order). The retry is the very same
 * command value. What a decider must answer to it is `retriesDecideNothing`.
 *
 *   fc.property(withRetries(AcquiringOrder.aggregate, acquiringCommands), (history) =>
 *     retriesDecideNothing(AcquiringOrder.aggregate)(history.commands))
 */
export const withRetries = <Command, Event, State, Error>(
  decider: Decider<Command, Event, State, Error>,
  sequences: fc.Arbitrary<ReadonlyArray<Command>>,
  options: RetryOptions = {},
): fc.Arbitrary<History<Command, Event, State, Error>> =>
  sequences.chain((commands) => {
    const accepted = acceptedPositions(decider, commands)
    if (accepted.length === 0) return fc.constant(historyOf(decider)(commands))
    const retry = fc.record({ original: fc.nat(), commandsLater: fc.nat() })
    return fc
      .array(retry, { minLength: 1, maxLength: options.retriesMax ?? 4 })
      .map((retries) =>
        historyOf(decider)(withRetriesAt(commands, accepted, retries, options.commandsLaterMax ?? commands.length)),
      )
  })

/** `commands` with each retry sent after the command `commandsLater` places after its original (at most `laterMax`). */
const withRetriesAt = <Command>(
  commands: ReadonlyArray<Command>,
  accepted: ReadonlyArray<number>,
  retries: ReadonlyArray<{ readonly original: number; readonly commandsLater: number }>,
  laterMax: number,
): ReadonlyArray<Command> => {
  const sentAfter = new Map<number, Array<Command>>()
  for (const { original, commandsLater } of retries) {
    const position = accepted[original % accepted.length] ?? 0
    const after = position + (commandsLater % Math.min(commands.length - position, laterMax + 1))
    const command = commands[position]
    if (command === undefined) continue
    sentAfter.set(after, [...(sentAfter.get(after) ?? []), command])
  }
  return commands.flatMap((command, i) => [command, ...(sentAfter.get(i) ?? [])])
}

/**
 * Every order of the given commands: independent requests (refunds of one
 * order, credits of one account) that a platform may send at once, in
 * whichever order they reach the stream.
 *
 *   fc.property(inAnyOrder([refundA, refundB, refundC]), (order) => ...)
 */
export const inAnyOrder = <Command>(commands: ReadonlyArray<Command>): fc.Arbitrary<ReadonlyArray<Command>> =>
  fc.shuffledSubarray([...commands], { minLength: commands.length, maxLength: commands.length })
