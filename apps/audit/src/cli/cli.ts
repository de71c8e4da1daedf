/**
 * The `mizan-audit` command line (README.md shows every command). Runs one
 * command against one store and answers the exit status: 0 when all is
 * well, 1 when the audit found something broken, 2 when it could not run
 * (a bad argument, a missing or newer store, a damaged export file), 3
 * when the store holds nothing of the data subject a command names.
 */

import { createWriteStream, existsSync, readFileSync, type WriteStream } from "node:fs"
import { resolve } from "node:path"
import { type CommandLine, fileErrorReason, fileWriteErrorReason, readCommandLine } from "@mizan/command-line"
import type { EventStore, StoreError } from "@mizan/eventsourcing"
import { withoutUndefined } from "@mizan/kernel"
import { KeyError, type PublicKey, parsePublicKey } from "@mizan/protocol"
import { Cause, Effect, Exit, Layer } from "effect"
import { type CliIo, type ExitCode, exitCodes, ioWrite, type Run } from "../common/commandIo.ts"
import { formatCount } from "../common/format.ts"
import {
  AuditError,
  describeStore,
  eventCountOf,
  failureMessage,
  layerKeyFileOf,
  layerOpenedStore,
  layerSealingStore,
  layerStore,
  masterKeyFileDefault,
  masterKeyFileEnvironmentVariable,
  parseStoreSetting,
  type StoreSetting,
  storeEnvironmentVariable,
} from "../common/stores.ts"
import { streamExists } from "../common/streamExists.ts"
import { chunkWriter } from "../common/writeChunk.ts"
import { accessCommand } from "../privacy/access.ts"
import { forgetCommand } from "../privacy/forget.ts"
import { rotateCommand } from "../privacy/keys.ts"
import { subjectOf } from "../privacy/subjectArgument.ts"
import { replayInWorkers } from "../replay/parallelReplay.ts"
import {
  type Cut,
  isClean,
  logPageSizeEventsDefault,
  type ReplayReport,
  replayLog,
  replayPageSizeEventsDefault,
} from "../replay/replay.ts"
import { reportJson, reportText } from "../replay/reportOutput.ts"
import { timelineOf } from "../replay/timeline.ts"
import {
  everyStreamAt,
  streamAtJson,
  streamAtText,
  timelineIsClean,
  timelineJson,
  timelineText,
} from "../replay/timelineOutput.ts"
import { exportLog } from "../transfer/exportLog.ts"
import { importDefaults, importLog } from "../transfer/importLog.ts"
import { removedIfNewAndFailed } from "../transfer/newStore.ts"
import { verifyIsClean, verifyLog } from "../verify/verify.ts"
import { verifyJson, verifyText } from "../verify/verifyOutput.ts"
import { makeProgress, noProgress, type Progress, wantsProgress } from "./progress.ts"

export { type CliIo, type ExitCode, exitCodes } from "../common/commandIo.ts"

/** The store the gateway writes by default (apps/gateway): the audit reads the same one unless told otherwise. */
export const storeSettingDefault = "sqlite:data/mizan.db"

/** Where the gateway writes the service's public key by default (apps/gateway/src/config/serviceKeys.ts). */
export const servicePublicKeyFileDefault = "data/service-public.pem"

export const usage = `usage: mizan-audit COMMAND [--store sqlite:PATH | postgres://... | kurrentdb://...] [--json]
       (--json: replay, show, at, verify and access; export writes NDJSON always)

  replay [--workers N]            replay every event, check every invariant, report counts, money and findings
                                  (on N threads, each folding a share of the streams; default 1)
  show STREAM                     one stream's events, each with the state after it
  at TIME [--stream STREAM]       the state of every stream (or one) as it was at TIME
                                  (ISO date-time, UTC unless it says otherwise, or ms since 1970)
  at --position N [--stream S]    the same, as of global position N
  export [--out FILE]             the whole log as NDJSON (to stdout without --out)
  import FILE [--in-flight N]     check an export file, then write it into the store (with its data keys)
         [--seal]                 and seal every personal field the file holds in clear (into an empty store)
  verify [--service-public-key F] check every event's chain hash and every signed head of the log
                                  (the key that signed the heads; default ${servicePublicKeyFileDefault})
  migrate                         create the store, or bring its schema to this version (the gateway does too)
  forget KIND:VALUE --by NAME     forget a person: destroy the data keys of a card, member, iban, remitter or payer
                                  (VALUE in clear or as its SHA-256 hex); their fields then read [forgotten]
  forget KIND --stream S --by N   forget the KIND of subject stream S names by no value (an order's payer without eid)
  access KIND:VALUE               what the store holds on a person: the streams and events holding their data, in clear
  access KIND --stream S          the same, for the KIND of subject stream S names by no value
  rotate-master-key [--retire]    re-wrap every data key under a new master key; --retire removes the old ones

The store is --store, else $${storeEnvironmentVariable}, else ${storeSettingDefault}.
The master key file is --master-key-file, else $${masterKeyFileEnvironmentVariable}, else ${masterKeyFileDefault}.
Exit status: 0 all is well, 1 something is broken, 2 the audit could not run,
3 the store holds nothing of the subject named (forget, access).
`

const options = {
  store: { type: "string" },
  json: { type: "boolean", default: false },
  stream: { type: "string" },
  position: { type: "string" },
  out: { type: "string" },
  "in-flight": { type: "string" },
  workers: { type: "string" },
  "service-public-key": { type: "string" },
  "master-key-file": { type: "string" },
  by: { type: "string" },
  retire: { type: "boolean", default: false },
  seal: { type: "boolean", default: false },
} as const

type Parsed = Exclude<CommandLine<typeof options>, { readonly help: true }>

const hasZone = /([zZ]|[+-][0-9]{2}:?[0-9]{2})$/

const calendarDate = /^([0-9]{4})-([0-9]{2})-([0-9]{2})/

/** The last moment a JavaScript Date holds (ECMA-262's time value range): past it nothing prints as a date-time. */
const latestDateMs = 8_640_000_000_000_000

/** Whether YEAR-MONTH-DAY is a day of the calendar: Date.parse rolls 2026-02-30 over into March. */
const isCalendarDay = (year: number, month: number, day: number): boolean => {
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day) // not Date.UTC, which reads years 0-99 as 1900-1999
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** TIME as ms since 1970: digits are ms; an ISO date-time without an offset is UTC. */
export const parseTime = (text: string): number | AuditError => {
  if (/^[0-9]+$/.test(text)) {
    const ms = Number(text)
    if (ms > latestDateMs)
      return new AuditError({
        detail: `TIME ${text} is past the last moment a date-time holds (${latestDateMs} ms since 1970)`,
      })
    // Ten digits are seconds since 1970 (`date +%s`) for 2001 to 2286; read as ms they are a day of early 1970.
    return text.length === 10
      ? new AuditError({
          detail: `TIME ${text} reads as ms since 1970 (${new Date(ms).toISOString()}): if it is seconds, give ${text}000`,
        })
      : ms
  }
  const date = calendarDate.exec(text)
  if (date === null) return new AuditError({ detail: `TIME must be an ISO date-time or ms since 1970, not "${text}"` })
  // A space for the T (as SQL and logs write it): else Date.parse reads the time in the machine's zone.
  const iso = text.replace(/^([0-9]{4}-[0-9]{2}-[0-9]{2}) /, "$1T")
  const ms = Date.parse(iso.includes("T") && !hasZone.test(iso) ? `${iso}Z` : iso)
  return Number.isNaN(ms) || !isCalendarDay(Number(date[1]), Number(date[2]), Number(date[3]))
    ? new AuditError({ detail: `TIME "${text}" is not a date-time` })
    : ms
}

const cutOf = (parsed: Parsed): Cut | AuditError => {
  const [, time] = parsed.positionals
  const { position } = parsed.values
  if (position !== undefined && time !== undefined)
    return new AuditError({ detail: "give TIME or --position, not both" })
  if (position !== undefined)
    return /^[0-9]+$/.test(position)
      ? { _tag: "Position", position: BigInt(position) }
      : new AuditError({ detail: `--position must be a global position, a whole number from 0 up, not "${position}"` })
  if (time === undefined) return new AuditError({ detail: "at needs TIME or --position N" })
  const atMs = parseTime(time)
  return atMs instanceof AuditError ? atMs : { _tag: "Time", atMs }
}

const wholeNumber = (name: string, text: string | undefined, fallback: number): number | AuditError => {
  if (text === undefined) return fallback
  return /^[1-9][0-9]*$/.test(text) && Number.isSafeInteger(Number(text))
    ? Number(text)
    : new AuditError({ detail: `--${name} must be a whole number above 0, not "${text}"` })
}

/** A command with the store it needs provided: the events as stored, opened, or under sealing. */
interface Command {
  readonly program: Effect.Effect<ExitCode, AuditError | StoreError>
}

const progressFor = (io: CliIo, label: string, store: StoreSetting, json: boolean): Progress =>
  !json && wantsProgress(io.stdout, io.env) ? makeProgress(io.stdout, label, eventCountOf(store)) : noProgress

/**
 * Events per page a replay reads: small from a file, where a page costs no
 * round trip and a small one dies young (replayPageSizeEventsDefault), and
 * the log's pages from a server, where each page is a round trip.
 */
export const replayPageSizeOf = (store: StoreSetting): number =>
  store._tag === "Sqlite" ? replayPageSizeEventsDefault : logPageSizeEventsDefault

/** The replay's report: folded here, or by `workers` threads when there are more than one (parallelReplay.ts). */
const replayReport = (
  store: StoreSetting,
  workers: number,
  masterKeyFile: string,
  onProgress: (eventsRead: number) => void,
): Effect.Effect<ReplayReport, AuditError | StoreError, EventStore> =>
  workers > 1
    ? replayInWorkers({ store, workers, masterKeyFile, onProgress, pageSizeEvents: replayPageSizeOf(store) })
    : Effect.map(replayLog({ states: "compact", onProgress, pageSizeEvents: replayPageSizeOf(store) }), (replayer) =>
        replayer.report(),
      )

const replayCommand = (io: CliIo, store: StoreSetting, json: boolean, workers: number, masterKeyFile: string): Run =>
  Effect.gen(function* () {
    const progress = progressFor(io, "replay", store, json)
    const startedMs = performance.now()
    const report = yield* replayReport(store, workers, masterKeyFile, progress.update).pipe(
      Effect.ensuring(Effect.sync(progress.finish)),
    )
    const elapsedMs = performance.now() - startedMs
    yield* ioWrite(io)(json ? `${JSON.stringify(reportJson(report, elapsedMs))}\n` : reportText(report, elapsedMs))
    return isClean(report) ? exitCodes.ok : exitCodes.broken
  })

const showCommand = (io: CliIo, streamId: string, json: boolean): Run =>
  Effect.gen(function* () {
    const timeline = yield* timelineOf(streamId)
    if (timeline.steps.length === 0) return yield* new AuditError({ detail: `the store holds no stream ${streamId}` })
    yield* ioWrite(io)(json ? timelineJson(timeline) : timelineText(timeline))
    return timelineIsClean(timeline) ? exitCodes.ok : exitCodes.broken
  })

const atCommand = (io: CliIo, store: StoreSetting, cut: Cut, streamId: string | undefined, json: boolean): Run =>
  Effect.gen(function* () {
    if (streamId !== undefined) {
      const timeline = yield* timelineOf(streamId, cut)
      // Nothing before the cut: a stream that began later, or none at all (a misspelt name), which must not read as "not yet".
      if (timeline.steps.length === 0 && !(yield* streamExists(streamId)))
        return yield* new AuditError({ detail: `the store holds no stream ${streamId}` })
      yield* ioWrite(io)(json ? streamAtJson(timeline, cut) : streamAtText(timeline, cut))
      return timelineIsClean(timeline) ? exitCodes.ok : exitCodes.broken
    }
    const progress = progressFor(io, "at", store, json)
    const replayer = yield* replayLog({
      cut,
      onProgress: progress.update,
      pageSizeEvents: replayPageSizeOf(store),
    }).pipe(Effect.ensuring(Effect.sync(progress.finish)))
    yield* everyStreamAt(replayer, cut, json, ioWrite(io))
    return isClean(replayer.report()) ? exitCodes.ok : exitCodes.broken
  })

/**
 * A file to write, closed (and flushed) when the export is done or fails;
 * `named` says it in a refusal, with the flag that names it.
 * It is opened before anything is read, so that a path that cannot be
 * written (a missing folder, no permission) is refused in one line, not
 * thrown as an unhandled stream error. A later write error reaches the
 * export through its write callback (writeChunk.ts), hence the quiet listener.
 */
const fileWriter = (path: string, named: string) =>
  Effect.acquireRelease(
    Effect.callback<WriteStream, AuditError>((resume) => {
      const out = createWriteStream(path)
      const refuse = (error: Error) =>
        resume(Effect.fail(new AuditError({ detail: `cannot write ${named}: ${fileWriteErrorReason(error)}` })))
      out.once("error", refuse)
      out.once("open", () => {
        out.off("error", refuse)
        out.on("error", () => {})
        resume(Effect.succeed(out))
      })
    }),
    (out) => Effect.callback<void>((resume) => void out.end(() => resume(Effect.void))),
  )

const exportCommand = (io: CliIo, store: StoreSetting, out: string | undefined): Run =>
  Effect.scoped(
    Effect.gen(function* () {
      if (out === undefined) {
        yield* exportLog(ioWrite(io))
        return exitCodes.ok
      }
      const path = resolve(io.cwd, out)
      const named = `the export file ${path} (--out)`
      const file = yield* fileWriter(path, named)
      const progress = progressFor(io, "export", store, false)
      const events = yield* exportLog(chunkWriter(file, named), { onProgress: progress.update }).pipe(
        Effect.ensuring(Effect.sync(progress.finish)),
      )
      yield* ioWrite(io)(`exported ${formatCount(events)} events to ${path}\n`)
      return exitCodes.ok
    }),
  )

const importCommand = (
  io: CliIo,
  store: StoreSetting,
  file: string,
  inFlight: number | undefined,
  seal: boolean,
): Run =>
  Effect.gen(function* () {
    const path = resolve(io.cwd, file)
    if (!existsSync(path)) return yield* new AuditError({ detail: `no export file at ${path}` })
    const progress = progressFor(io, "import", store, false)
    const summary = yield* importLog(path, {
      ...withoutUndefined({ appendsInFlightMax: inFlight }),
      seal,
      targetName: describeStore(store),
      onProgress: progress.update,
    }).pipe(Effect.ensuring(Effect.sync(progress.finish)))
    yield* ioWrite(io)(
      `imported ${formatCount(summary.events)} events of ${formatCount(summary.streams)} streams in ${formatCount(summary.appends)} appends, ${formatCount(summary.keys)} data keys and ${formatCount(summary.signedHeads)} signed heads${
        summary.signedHeadsLeftBehind === 0
          ? ""
          : `; ${formatCount(summary.signedHeadsLeftBehind)} signed heads left behind, as sealing changed the events they digest`
      }\n`,
    )
    return exitCodes.ok
  })

/** The service's public key, read before the store is opened so that a wrong path fails at once. */
const readServicePublicKey = (io: CliIo, file: string | undefined): PublicKey | AuditError => {
  const path = resolve(io.cwd, file ?? servicePublicKeyFileDefault)
  if (!existsSync(path))
    return new AuditError({
      detail: `no service public key at ${path}: give the key that signed the log's heads with --service-public-key FILE`,
    })
  try {
    return parsePublicKey(readFileSync(path, "utf8"))
  } catch (error) {
    if (error instanceof KeyError) return new AuditError({ detail: `${path}: ${error.reason}` })
    // A folder, a file this user may not read: the file system's reason, not a stack.
    return new AuditError({
      detail: `cannot read the service public key ${path} (--service-public-key): ${fileErrorReason(error)}`,
    })
  }
}

const verifyCommand = (io: CliIo, key: PublicKey, json: boolean): Run =>
  Effect.gen(function* () {
    const report = yield* verifyLog({ servicePublicKey: key })
    yield* ioWrite(io)(json ? verifyJson(report) : verifyText(report))
    return verifyIsClean(report) ? exitCodes.ok : exitCodes.broken
  })

/**
 * Each command's shape: the words it takes besides its options (`show
 * STREAM`), one more refused (`replay sqlite:other.db` would replay the
 * default store); and whether it has a JSON form, --json refused by any
 * other rather than answered in text a script cannot parse.
 */
const commandShapes: ReadonlyMap<string, { readonly words: 0 | 1; readonly json: boolean }> = new Map([
  ["replay", { words: 0, json: true }],
  ["show", { words: 1, json: true }],
  ["at", { words: 1, json: true }],
  ["export", { words: 0, json: true }],
  ["import", { words: 1, json: false }],
  ["verify", { words: 0, json: true }],
  ["migrate", { words: 0, json: false }],
  ["forget", { words: 1, json: false }],
  ["access", { words: 1, json: true }],
  ["rotate-master-key", { words: 0, json: false }],
])

/**
 * The master key file's path; whether `--master-key-file` or the
 * environment gave it; and `namedBy`, where the path came from, for a
 * refusal that names the file: what to change.
 */
const masterKeyFileOf = (parsed: Parsed, io: CliIo) => {
  const option = parsed.values["master-key-file"]
  const given = option ?? io.env[masterKeyFileEnvironmentVariable]
  const namedBy =
    option !== undefined
      ? "--master-key-file"
      : given !== undefined
        ? masterKeyFileEnvironmentVariable
        : `the default: neither --master-key-file nor ${masterKeyFileEnvironmentVariable} is set`
  return { given, path: resolve(io.cwd, given ?? masterKeyFileDefault), namedBy }
}

const commandOf = (parsed: Parsed, io: CliIo, store: StoreSetting): Command | AuditError => {
  const [name, argument] = parsed.positionals
  const { json } = parsed.values
  const { given: masterKeyFileGiven, path: masterKeyFile, namedBy: masterKeyFileNamedBy } = masterKeyFileOf(parsed, io)
  /**
   * The events as stored: what verify checks and export and import carry
   * (the chain covers the stored bytes). The master key file, when there is
   * one, is there for import to open sealed events and seal clear ones;
   * `keyFileGiven`, one named and missing is refused, naming it, rather than
   * asked for at the first sealed event as if none had been given.
   */
  const asStored = (run: Run, storeMustExist = true, keyFileGiven = false): Command => ({
    program: Effect.provide(
      run,
      Layer.fresh(
        keyFileGiven || existsSync(masterKeyFile)
          ? Layer.merge(layerStore(store, { mustExist: storeMustExist }), layerKeyFileOf(masterKeyFile))
          : layerStore(store, { mustExist: storeMustExist }),
      ),
    ),
  })
  /** The events as the domain sees them, sealed fields opened. */
  const opened = (run: Run): Command => ({
    program: Effect.provide(run, Layer.fresh(layerOpenedStore(store, { mustExist: true }, masterKeyFile))),
  })
  const shape = commandShapes.get(name ?? "")
  const stray = shape === undefined ? undefined : parsed.positionals[1 + shape.words]
  if (stray !== undefined)
    return new AuditError({
      detail: `${name} takes ${shape?.words === 0 ? "no word" : "one word"} besides its options, not also "${stray}" (the store is --store)`,
    })
  if (json && name !== undefined && shape?.json !== true)
    return new AuditError({
      detail: `${name} writes no JSON: --json is for replay, show, at, verify and access (export writes NDJSON always)`,
    })
  switch (name) {
    case "replay": {
      const workers = wholeNumber("workers", parsed.values.workers, 1)
      return workers instanceof AuditError ? workers : opened(replayCommand(io, store, json, workers, masterKeyFile))
    }
    case "show":
      return argument === undefined
        ? new AuditError({ detail: "show needs a STREAM" })
        : opened(showCommand(io, argument, json))
    case "at": {
      const cut = cutOf(parsed)
      return cut instanceof AuditError ? cut : opened(atCommand(io, store, cut, parsed.values.stream, json))
    }
    case "export":
      return asStored(exportCommand(io, store, parsed.values.out))
    case "import": {
      // Unset, import chooses: 32, or 1 for a file with signed heads (importLog.ts).
      const given = parsed.values["in-flight"]
      const inFlight =
        given === undefined ? undefined : wholeNumber("in-flight", given, importDefaults.appendsInFlightMax)
      if (inFlight instanceof AuditError) return inFlight
      if (argument === undefined) return new AuditError({ detail: "import needs the FILE to import" })
      // Refused before the store is opened, which would create it: a refused import leaves no empty store behind.
      if (parsed.values.seal && !existsSync(masterKeyFile))
        return new AuditError({
          detail: `import --seal needs the master key file, and there is none at ${masterKeyFile} (${masterKeyFileNamedBy}): without it the file would be stored in clear`,
        })
      const importing = asStored(
        importCommand(io, store, argument, inFlight, parsed.values.seal),
        false,
        masterKeyFileGiven !== undefined,
      )
      return { program: removedIfNewAndFailed(store, importing.program) }
    }
    case "verify": {
      const key = readServicePublicKey(io, parsed.values["service-public-key"])
      return key instanceof AuditError ? key : asStored(verifyCommand(io, key, json))
    }
    case "migrate":
      // Opening a store that may be created is what creates and migrates it (the store's own migrations).
      return asStored(
        Effect.as(
          Effect.sync(() => io.stdout.write(`${describeStore(store)} holds a Mizan store at this version\n`)),
          exitCodes.ok,
        ),
        false,
      )
    case "forget": {
      const subject = subjectOf("forget", argument, parsed.values.stream)
      if (subject instanceof AuditError) return subject
      const by = parsed.values.by
      if (by === undefined || by.trim() === "")
        return new AuditError({ detail: "forget needs --by NAME: who asks, recorded with the forget" })
      return {
        program: Effect.provide(forgetCommand(io, subject, by), Layer.fresh(layerSealingStore(store, masterKeyFile))),
      }
    }
    case "access": {
      const subject = subjectOf("access", argument, parsed.values.stream)
      if (subject instanceof AuditError) return subject
      // The events as stored, each of the subject's entries opened alone: the keyed ids and the data need the master key.
      return {
        program: Effect.provide(
          accessCommand(io, store, subject, json),
          Layer.fresh(Layer.merge(layerStore(store, { mustExist: true }), layerKeyFileOf(masterKeyFile))),
        ),
      }
    }
    case "rotate-master-key":
      return {
        program: Effect.provide(
          rotateCommand(io, masterKeyFile, parsed.values.retire),
          Layer.fresh(layerSealingStore(store, masterKeyFile)),
        ),
      }
    default:
      return new AuditError({ detail: name === undefined ? "no command given" : `unknown command "${name}"` })
  }
}

/** Runs the command line `argv` (without node and the script) and answers the exit status. */
export const runCli = async (argv: ReadonlyArray<string>, io: CliIo): Promise<ExitCode> => {
  const fail = (detail: string, withUsage = false): ExitCode => {
    io.stderr.write(`mizan-audit: ${detail}\n${withUsage ? `\n${usage}` : ""}`)
    return exitCodes.failed
  }
  let line: CommandLine<typeof options>
  try {
    line = readCommandLine("mizan-audit", argv, options)
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n`)
    return exitCodes.failed
  }
  if (line.help) {
    io.stdout.write(usage)
    return exitCodes.ok
  }
  const parsed: Parsed = line
  const store = parseStoreSetting(
    parsed.values.store ?? io.env[storeEnvironmentVariable] ?? storeSettingDefault,
    io.cwd,
  )
  if (store instanceof AuditError) return fail(store.detail)
  const command = commandOf(parsed, io, store)
  if (command instanceof AuditError) return fail(command.detail, true)
  // A write to a pipe whose reader went (`| head`) fails its callback
  // (writeChunk.ts) and emits an error event, which with no listener would
  // end the process with a stack trace.
  const quiet = () => {}
  io.stdout.on("error", quiet)
  const exit = await Effect.runPromiseExit(command.program)
  io.stdout.off("error", quiet)
  if (Exit.isSuccess(exit)) return exit.value
  // A StoreError the key ring caused (a data key that does not unwrap) is the master key file's fault: named with it.
  return readerWentAway(exit.cause)
    ? exitCodes.failed
    : fail(failureMessage(store, exit.cause, masterKeyFileOf(parsed, io).path))
}

const readerWentAway = (cause: Cause.Cause<unknown>): boolean => {
  const error = Cause.squash(cause)
  return error instanceof AuditError && error.readerGone === true
}
