/**
 * How followers learn that the log grew. Appends in this process wake them
 * directly; appends in other processes reach them by LISTEN/NOTIFY; and
 * `followByReading` polls as the fallback when a notification is lost (a
 * dropped listener connection, a transaction outside Mizan holding readers
 * back).
 */
import { AppendSignal } from "@mizan/eventsourcing"
import { Effect } from "effect"
import pg from "pg"
import { columnTypes } from "./columnTypes.ts"

/**
 * An AppendSignal for one follower that remembers a notify that came while
 * the follower was reading rather than waiting. Without the latch, a commit
 * that lands between a follower's read and its wait is noticed only at the
 * next poll.
 */
export class LatchedAppendSignal extends AppendSignal {
  private latched = false
  private wakeWaiter: (() => void) | undefined = undefined

  override notify(): void {
    const wake = this.wakeWaiter
    this.wakeWaiter = undefined
    if (wake === undefined) this.latched = true
    else wake()
  }

  override wait(waitMs: number): Effect.Effect<void> {
    return Effect.callback<void>((resume) => {
      if (this.latched) {
        this.latched = false
        resume(Effect.void)
        return
      }
      const forget = () => {
        clearTimeout(timer)
        if (this.wakeWaiter === wake) this.wakeWaiter = undefined
      }
      const wake = () => {
        forget()
        resume(Effect.void)
      }
      const timer = setTimeout(wake, waitMs)
      this.wakeWaiter = wake
      return Effect.sync(forget)
    })
  }
}

/** The signals of this store's live followers. */
export class Followers {
  private readonly signals = new Set<LatchedAppendSignal>()

  get count(): number {
    return this.signals.size
  }

  readonly join = (): LatchedAppendSignal => {
    const signal = new LatchedAppendSignal()
    this.signals.add(signal)
    return signal
  }

  readonly leave = (signal: LatchedAppendSignal): void => void this.signals.delete(signal)

  readonly wakeAll = (): void => {
    for (const signal of this.signals) signal.notify()
  }
}

/**
 * The store's notification connection: a dedicated session (LISTEN needs
 * one for its whole life) that listens for other processes' appends and
 * announces this process's.
 *
 * Announcements are coalesced: at most one NOTIFY is in flight, and appends
 * that commit meanwhile become one more. They are sent after the appends
 * commit, not inside them, because a notifying transaction holds a
 * cluster-wide lock until it has committed (PostgreSQL's async.c queues
 * notifications in commit order), which would serialise every append. The
 * session commits without waiting for its WAL to be flushed
 * (`synchronous_commit = off`): a notification needs no durability, and an
 * append should not pay a second fsync for it.
 *
 * A dropped connection is opened again after `retryDelayMs`; followers are
 * woken then, since notifications sent meanwhile are lost, and an
 * announcement due while it was down is sent then.
 */
export class NotificationChannel {
  private readonly connectionString: string
  private readonly channel: string
  private readonly onOtherProcessAppended: () => void
  private readonly retryDelayMs: number
  private client: pg.Client | undefined = undefined
  private connected = false
  private closed = false
  private retryTimer: NodeJS.Timeout | undefined = undefined
  private inFlight: Promise<void> | undefined = undefined
  private pending = false
  private firstAttemptSettled: () => void = () => undefined
  /** Settles once the first connection attempt has succeeded or failed (the store opens after it). */
  readonly ready: Promise<void> = new Promise((resolve) => {
    this.firstAttemptSettled = resolve
  })

  constructor(connectionString: string, channel: string, onOtherProcessAppended: () => void, retryDelayMs: number) {
    this.connectionString = connectionString
    this.channel = channel
    this.onOtherProcessAppended = onOtherProcessAppended
    this.retryDelayMs = retryDelayMs
    this.connect()
  }

  private connect(): void {
    if (this.closed) {
      this.firstAttemptSettled()
      return
    }
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: "mizan",
      types: columnTypes,
    })
    this.client = client
    let ownPid: number | undefined
    const dropped = () => {
      if (this.client !== client) return
      this.client = undefined
      this.connected = false
      this.firstAttemptSettled()
      client.end().catch(() => undefined)
      if (this.closed) return
      this.retryTimer = setTimeout(() => this.connect(), this.retryDelayMs)
      this.retryTimer.unref()
    }
    client.on("error", dropped)
    client.on("end", dropped)
    client.on("notification", (notification) => {
      // This session hears its own announcements too; this process's followers were woken directly.
      if (notification.channel === this.channel && notification.processId !== ownPid) this.onOtherProcessAppended()
    })
    client
      .connect()
      .then(() => client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid"))
      .then(({ rows }) => {
        ownPid = rows[0]?.pid
        return client.query(`SET synchronous_commit = off; LISTEN "${this.channel}"`)
      })
      .then(() => {
        if (this.client !== client) return
        this.connected = true
        this.firstAttemptSettled()
        this.onOtherProcessAppended()
        if (this.pending) {
          this.pending = false
          this.announce()
        }
      }, dropped)
  }

  /** Tells other processes that this one committed appends. */
  readonly announce = (): void => {
    const client = this.client
    if (!this.connected || client === undefined || this.inFlight !== undefined) {
      this.pending = true
      return
    }
    this.inFlight = client
      .query(`NOTIFY "${this.channel}"`)
      // A lost announcement costs other processes' followers one poll interval, no more.
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this.inFlight = undefined
        if (this.pending) {
          this.pending = false
          this.announce()
        }
      })
  }

  readonly close = async (): Promise<void> => {
    this.closed = true
    clearTimeout(this.retryTimer)
    while (this.inFlight !== undefined) await this.inFlight
    const client = this.client
    this.client = undefined
    this.connected = false
    await client?.end().catch(() => undefined)
  }
}
