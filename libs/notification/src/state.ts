import type { Timestamp } from "@mizan/kernel"
import type { NotificationDetails } from "./events.ts"
import type { AttemptOutcome, GiveUpReason } from "./outcome.ts"

export interface Attempt {
  readonly round: number
  /** 1 for the first attempt of its round. */
  readonly attempt: number
  readonly at: Timestamp
  readonly outcome: AttemptOutcome
}

/** What every scheduled notification knows, whatever its status. */
interface Scheduled {
  readonly notification: NotificationDetails
  readonly scheduledAt: Timestamp
  /** 1 for the first round; each operator resend opens the next. */
  readonly round: number
  readonly roundStartedAt: Timestamp
  /** Who asked for this round, when an operator did. */
  readonly roundRequestedBy: string | undefined
  readonly attemptsInRound: number
  /** Attempts over every round, for operators. */
  readonly attemptsTotal: number
  readonly lastAttempt: Attempt | undefined
}

export interface Absent {
  readonly status: "ABSENT"
}

/** Waiting for its next attempt. */
export interface Pending extends Scheduled {
  readonly status: "PENDING"
  readonly nextAttemptAt: Timestamp
}

/** The merchant acknowledged it. Only an operator's resend opens it again. */
export interface Delivered extends Scheduled {
  readonly status: "DELIVERED"
  readonly deliveredAt: Timestamp
}

/** Every attempt of the round failed, or the notifyUrl was refused. Only an operator's resend opens it again. */
export interface GivenUp extends Scheduled {
  readonly status: "GIVEN_UP"
  readonly givenUpAt: Timestamp
  readonly reason: GiveUpReason
}

export type State = Absent | Pending | Delivered | GivenUp

export const initialState: State = { status: "ABSENT" }

/** When the next attempt is due, or undefined when none is (not scheduled, delivered or given up). */
export const nextAttemptAt = (state: State): Timestamp | undefined =>
  state.status === "PENDING" ? state.nextAttemptAt : undefined

/** Delivered or given up: nothing more happens until an operator resends it. */
export const isClosed = (state: State): state is Delivered | GivenUp =>
  state.status === "DELIVERED" || state.status === "GIVEN_UP"
