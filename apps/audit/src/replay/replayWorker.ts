/**
 * One worker thread of a parallel replay (parallelReplay.ts): opens the
 * store named in its `workerData`, replays the whole log folding only the
 * streams of its partition into compact states, says so, then answers the
 * parent's questions about what it holds until the parent ends it.
 */
// Before any schema is used, as in main.ts: compiled decoders.
import { withoutUndefined } from "@mizan/kernel"
import "effect/schema/SchemaJITCompiler/enable"
import { parentPort, workerData } from "node:worker_threads"
import { Effect, Exit } from "effect"
import { failureMessage, layerOpenedStore } from "../common/stores.ts"
import { localPart } from "./parallelReplay.ts"
import { replayLog } from "./replay.ts"
import type { ParentMessage, ReplayWorkerData, WorkerMessage } from "./replayWorkerProtocol.ts"

const port = parentPort!
const data = workerData as ReplayWorkerData
const post = (message: WorkerMessage) => port.postMessage(message)
// Its modules are loaded by now: the start-up is the time since the parent started the thread.
const startMs = performance.timeOrigin + performance.now() - data.startedAtMs

const exit = await Effect.runPromiseExit(
  replayLog({
    states: "compact",
    partition: data.partition,
    cut: data.cut,
    ...withoutUndefined({ pageSizeEvents: data.pageSizeEvents }),
    ...withoutUndefined({ findingsListedMax: data.findingsListedMax }),
    onProgress: (read) => post({ _tag: "Progress", read }),
  }).pipe(Effect.provide(layerOpenedStore(data.store, { mustExist: true }, data.masterKeyFile))),
)
if (Exit.isFailure(exit)) post({ _tag: "Failed", detail: failureMessage(data.store, exit.cause) })
else {
  const part = localPart(exit.value)
  port.on("message", async (message: ParentMessage) => {
    const answer = async (): Promise<unknown> => {
      switch (message.method) {
        case "part":
          return part.part()
        case "wanted":
          return part.wanted()
        case "factsOf":
          return part.factsOf(message.streamIds)
        case "crossStream":
          return part.crossStream(message.facts)
      }
    }
    try {
      post({ _tag: "Answer", id: message.id, value: await answer() })
    } catch (error) {
      post({ _tag: "AnswerFailed", id: message.id, detail: error instanceof Error ? error.message : String(error) })
    }
  })
  const cpu = process.threadCpuUsage()
  post({
    _tag: "Read",
    timing: {
      startMs,
      readMs: performance.timeOrigin + performance.now() - data.startedAtMs - startMs,
      cpuMs: (cpu.user + cpu.system) / 1_000,
    },
  })
}
