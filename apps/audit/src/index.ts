/**
 * @mizan/audit: replay every event of a store with every invariant checked,
 * show a stream's timeline, travel in time, export and import the log,
 * verify its chain and signed heads.
 * `src/main.ts` is the command line; this is the same, as functions.
 */

export { accessJson, accessText } from "./accessReport.ts"
export { type AuditFold, type FoldedStates, slimmed } from "./auditFold.ts"
export { type CliIo, type ExitCode, exitCodes, parseTime, runCli, storeSettingDefault, usage } from "./cli.ts"
export { type CliRun, runCliToText } from "./cliText.ts"
export { exportLog } from "./exportLog.ts"
export { fixedClock } from "./fixedClock.ts"
export { formatFilsBig, jsonReplacer, toJson } from "./format.ts"
export { type ImportOptions, type ImportSummary, importDefaults, importLog } from "./importLog.ts"
export { ExportedEvent, ExportedHead, endLine, exportLine, headLine, parseLine } from "./ndjson.ts"
export { OrderNumberIssued, orderIndex, orderIndexRules, orderIndexStreamId } from "./orderIndex.ts"
export {
  localPart,
  type ParallelReplayOptions,
  type ReplayPart,
  replayInWorkers,
  reportOfParts,
} from "./parallelReplay.ts"
export { refundReservationProblem, refundReservationRule } from "./refundReservation.ts"
export {
  type AuditedAggregate,
  aggregateOf,
  type BrokenRule,
  domainFold,
  type MoneyFigureName,
  type MoneyFigures,
  moneyFigureNames,
  registry,
} from "./registry.ts"
export {
  type BrokenInvariant,
  type Cut,
  type EventPlace,
  endsAppend,
  everything,
  evolveRule,
  type Findings,
  isClean,
  logPageSizeEventsDefault,
  makeReplayer,
  type Partition,
  type Replayer,
  type ReplayerOptions,
  type ReplayLogOptions,
  type ReplayReport,
  replayLog,
  replayPageSizeEventsDefault,
  type TrackedStream,
  type TrackedStreams,
  timeRule,
  type UndecodableEvent,
  type VersionGap,
} from "./replay.ts"
export type { WorkerTiming } from "./replayWorkerProtocol.ts"
export { reportJson, reportText } from "./report.ts"
export { AuditError, layerStore, parseStoreSetting, type StoreSetting } from "./stores.ts"
export { type HeldEvent, type SubjectAccess, type SubjectTarget, subjectAccess } from "./subjectAccess.ts"
export { type Timeline, type TimelineStep, timelineOf } from "./timeline.ts"
export {
  type EventFinding,
  type HeadFinding,
  type VerifyFinding,
  type VerifyOptions,
  type VerifyReport,
  verifyFindingsMax,
  verifyIsClean,
  verifyLog,
} from "./verify.ts"
export { verifyJson, verifyText } from "./verifyReport.ts"
