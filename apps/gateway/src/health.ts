/**
 * What an orchestrator asks of a process: `/health`, is it alive (it
 * answers at all); `/ready`, should it be sent traffic: its store answers,
 * takes writes, and the notifier it runs takes in the log within a bound of
 * its head. And `/metrics`, the process's metrics in Prometheus text format.
 */
import { EventStore, logStart, type RecordedEvent, WriteHealth, type WriteState } from "@mizan/eventsourcing"
import { Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { PrometheusMetrics } from "effect/observability"

export const healthRoute = HttpRouter.add("GET", "/health", HttpServerResponse.text("ok"))

export const metricsRoute = PrometheusMetrics.layerHttp({ path: "/metrics" })

/** How long the store may take to answer the readiness probe. */
export const storeProbeTimeoutMs = 2_000

/** The notifier may be this far behind the log's head and still be ready, unless configured otherwise. */
export const readyNotifierLagSecondsDefault = 30

/** How far the notifier has got, as it reports it (the notifier's `NotifierProgress`). */
export interface NotifierFollowing {
  readonly status: "standby" | "catchingUp" | "following" | "stopped"
  /** Every event up to here has been taken in. */
  readonly processedUpTo: bigint
}

export interface Readiness {
  /** The notifier this process runs, if its roles include one. */
  readonly notifier: NotifierFollowing | undefined
  readonly notifierMaxLagSeconds: number
}

type NotifierReport =
  | { readonly status: "not run here" | "standby" | "stopped" }
  | { readonly status: "catchingUp" | "following"; readonly lagSeconds: number }

const oneEventAfter = (store: EventStore["Service"], position: bigint) =>
  Effect.map(
    store.readAll({ after: position, maxCount: 1 }),
    (page): Option.Option<RecordedEvent> => Option.fromNullishOr(page[0]),
  )

/**
 * How far behind the notifier is: the age of the oldest event it has not
 * taken in (0 when it has taken in every one). Ages are read from the time
 * the store recorded: on a sandbox merchant's advanced test clock an event
 * looks younger than it is, never older.
 */
const notifierReport = Effect.fn("Gateway.notifierReport")(function* (
  store: EventStore["Service"],
  progress: NotifierFollowing | undefined,
) {
  if (progress === undefined) return { status: "not run here" } as const
  const { status } = progress
  if (status === "standby" || status === "stopped") return { status } as const
  const next = yield* oneEventAfter(store, progress.processedUpTo)
  const lagMs = Option.match(next, {
    onNone: () => 0,
    onSome: (event) => Math.max(0, Date.now() - event.metadata.recordedAt),
  })
  return { status, lagSeconds: Math.round(lagMs / 100) / 10 } as const
})

const isNotifierReady = (report: NotifierReport, maxLagSeconds: number): boolean =>
  report.status === "stopped" ? false : "lagSeconds" in report ? report.lagSeconds <= maxLagSeconds : true

type WritesReport =
  | { readonly status: "ok" | "unanswered" }
  | { readonly status: "failing"; readonly failingForSeconds: number }

/**
 * Whether the store takes writes. While the last write failed (or none was
 * made yet) a probe write finds out, since a process that says it is not
 * ready gets no traffic to write with (libs/eventsourcing, writeHealth.ts);
 * a probe with no answer within the bound is `unanswered`. Asked apart from
 * the read, so that a store that answers neither says both. The failure's
 * detail names files and hosts: it goes to the log, not here.
 */
const writesReport = Effect.fn("Gateway.writesReport")(function* (health: WriteHealth["Service"]) {
  const last = health.state()
  const found: WriteState = last.status === "ok" ? last : yield* health.probe
  return found.status === "failing"
    ? ({ status: "failing", failingForSeconds: Math.round((Date.now() - found.sinceMs) / 100) / 10 } as const)
    : ({ status: "ok" } as const satisfies WritesReport)
})

/** `/ready`: 200 when ready, 503 otherwise, with what was found as JSON. */
export const readyRoute = (readiness: Readiness) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const store = yield* EventStore
      const health = yield* WriteHealth
      const router = yield* HttpRouter.HttpRouter
      const reads = Effect.gen(function* () {
        // The store answers a read: the first event of the log, or that there is none.
        yield* oneEventAfter(store, logStart)
        const notifier = yield* notifierReport(store, readiness.notifier)
        return { store: "ok" as const, notifier }
      }).pipe(
        Effect.timeout(storeProbeTimeoutMs),
        Effect.catchCause(() => Effect.succeed({ store: "unreachable" as const, notifier: undefined })),
      )
      const writes = writesReport(health).pipe(
        Effect.timeout(storeProbeTimeoutMs),
        Effect.catchCause(() => Effect.succeed<WritesReport>({ status: "unanswered" })),
      )
      const check = Effect.map(
        Effect.all([reads, writes], { concurrency: 2 }),
        ([{ store: storeFound, notifier }, writesFound]) => ({ store: storeFound, writes: writesFound, notifier }),
      )
      yield* router.add("GET", "/ready", () =>
        Effect.map(check, (found) => {
          const ready =
            found.store === "ok" &&
            found.writes.status === "ok" &&
            (found.notifier === undefined || isNotifierReady(found.notifier, readiness.notifierMaxLagSeconds))
          return HttpServerResponse.jsonUnsafe({ ready, ...found }, { status: ready ? 200 : 503 })
        }),
      )
    }),
  )

/** The routes every process serves, whatever its roles. */
export const operatorRoutes = (readiness: Readiness) => Layer.mergeAll(healthRoute, readyRoute(readiness), metricsRoute)
