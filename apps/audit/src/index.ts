/**
 * @mizan/audit: replay every event of a store with every invariant checked,
 * show a stream's timeline, travel in time, export and import the log,
 * verify its chain and signed heads.
 * `src/main.ts` is the command line; this is the same, as functions.
 */

export { type CliIo, type ExitCode, exitCodes, parseTime, runCli, storeSettingDefault, usage } from "./cli/cli.ts"
export { type CliRun, runCliToText } from "./cli/cliText.ts"
export { formatFilsBig, jsonReplacer, toJson } from "./common/format.ts"
export { AuditError, layerStore, parseStoreSetting, type StoreSetting } from "./common/stores.ts"
export {
  type AuditFold,
  type FoldedStates,
  type MoneyFigureName,
  type MoneyFigures,
  moneyFigureNames,
  slimmed,
} from "./model/auditFold.ts"
export { OrderNumberIssued, orderIndex, orderIndexRules, orderIndexStreamId } from "./model/orderIndex.ts"
export {
  type AuditedAggregate,
  aggregateOf,
  type BrokenRule,
  domainFold,
  registry,
} from "./model/registry.ts"
export { accessJson, accessText } from "./privacy/accessOutput.ts"
export { type HeldEvent, type SubjectAccess, type SubjectTarget, subjectAccess } from "./privacy/subjectAccess.ts"
export {
  localPart,
  type ParallelReplayOptions,
  type ReplayPart,
  replayInWorkers,
  reportOfParts,
} from "./replay/parallelReplay.ts"
export { refundReservationProblem, refundReservationRule } from "./replay/refundReservation.ts"
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
} from "./replay/replay.ts"
export type { WorkerTiming } from "./replay/replayWorkerProtocol.ts"
export { reportJson, reportText } from "./replay/reportOutput.ts"
export { type Timeline, type TimelineStep, timelineOf } from "./replay/timeline.ts"
export { exportLog } from "./transfer/exportLog.ts"
export { fixedClock } from "./transfer/fixedClock.ts"
export { type ImportOptions, type ImportSummary, importDefaults, importLog } from "./transfer/importLog.ts"
export { ExportedEvent, ExportedHead, endLine, exportLine, headLine, parseLine } from "./transfer/ndjson.ts"
export {
  type EventFinding,
  type HeadFinding,
  type VerifyFinding,
  type VerifyOptions,
  type VerifyReport,
  verifyFindingsMax,
  verifyIsClean,
  verifyLog,
} from "./verify/verify.ts"
export { verifyJson, verifyText } from "./verify/verifyOutput.ts"
