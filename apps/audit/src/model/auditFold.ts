/**
 * How the replay folds one aggregate's streams. The domain's own fold
 * (`initialState`, `evolve`) builds the states `show`, `at` and the library's
 * readers print; a replay that only reports can fold into a **compact audit
 * state** instead: the numbers and the few fields the invariants, the status,
 * the money figures and the cross-stream rules read, not every field of every
 * event. On a million events the domain's states are about 400 MB held to the
 * end, promoted to the old generation as they are made, and collecting them
 * was the largest part of a replay (README.md, Performance).
 *
 * The domain's `evolve` stays the reference: test/compactFold.spec.ts proves,
 * over random histories made by the real deciders and damaged at random, that
 * every compact fold breaks exactly the rules the domain's fold breaks, with
 * the same details, after every append, and answers the same status and money.
 *
 * A leaf: the registry, the compact folds and the replay import it, and it
 * imports none of them.
 */

import type { BrokenRule } from "@mizan/kernel"

/** The money totals of a replay, in fils. */
export const moneyFigureNames = ["paid", "refunded", "settled", "paidOut", "fees", "deposited"] as const
export type MoneyFigureName = (typeof moneyFigureNames)[number]
export type MoneyFigures = Partial<Readonly<Record<MoneyFigureName, number>>>

/** One aggregate's fold as the replay runs it: `Event` and `State` are erased in the registry. */
export interface AuditFold<Event = unknown, State = unknown> {
  /** A fresh state for a stream not read yet (a compact fold may change its states in place). */
  readonly initial: () => State
  readonly evolve: (state: State, event: Event) => State
  readonly invariants: (state: State) => ReadonlyArray<BrokenRule>
  readonly status: (state: State) => string
  readonly money: (state: State) => MoneyFigures
  /**
   * Whether the state is final: a status from which the aggregate's decider
   * records no event, so that a stream in it is likely never to be read again
   * (a compact replay then retires it: replay.ts, retiredStreams.ts). Only a
   * matter of memory: a retired stream keeps its state, and an event after
   * the end (a damaged log) folds into it as into any other. Undefined: never final.
   */
  readonly ended?: ((state: State) => boolean) | undefined
}

/** Which states a replay keeps: the domain's (to print them) or the compact ones (to report). */
export type FoldedStates = "domain" | "compact"

/** The fields of `state` named in `keys`, those it has (an absent field stays absent). */
const picked = (state: object, keys: ReadonlyArray<string>): object => {
  const source = state as Record<string, unknown>
  const slim: Record<string, unknown> = {}
  for (const key of keys) if (key in source) slim[key] = source[key]
  return slim
}

/**
 * A compact fold for an aggregate whose `evolve` builds a flat state from its
 * first event (a transfer order copies the whole placed event) and whose
 * invariants, status and money read a few of its fields: the domain's own
 * `evolve`, its state then cut down to `keys`. `keys` must name every field
 * that the domain's `evolve`, `invariants`, `status` and `money` read; the
 * property test fails on one left out.
 */
/** Every key of any of the union's members (a FAILURE's `failCode` beside every status's `status`). */
type KeyOfAny<T> = T extends unknown ? Extract<keyof T, string> : never

export const slimmed = <Event, State extends object>(
  domain: AuditFold<Event, State>,
  keys: ReadonlyArray<KeyOfAny<State>>,
): AuditFold<Event, State> => ({
  initial: domain.initial,
  // The domain's evolve reads only `keys` of the state it is given, so a slim state stands for a whole one.
  evolve: (state, event) => picked(domain.evolve(state, event), keys) as State,
  invariants: domain.invariants,
  status: domain.status,
  money: domain.money,
  ended: domain.ended,
})
