/**
 * AES-256-GCM boxes made in a worker thread, for the sealing benchmark's
 * "sealed off the event loop" floor: what sealing costs the 64 writers when
 * the event loop only hands its fields over and takes the boxes back. Each
 * box is the sealer's own (`sealBytes`, the same key object, nonce and
 * layout); the boxes asked for in one turn of the event loop go over in one
 * message and come back in one, so that a group of appends pays one round
 * trip, not one each.
 *
 * This module is both sides: imported on the main thread it starts the
 * worker (`startSealingWorker`); loaded as that worker it answers.
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads"
import { cipherKeyOf, sealBytes } from "@mizan/eventsourcing"

interface Request {
  readonly id: number
  readonly clears: ReadonlyArray<Uint8Array>
  readonly associated: ReadonlyArray<string>
}

interface Answer {
  readonly id: number
  readonly boxes: ReadonlyArray<string>
}

interface WorkerData {
  readonly sealingWorkerKey: Uint8Array
}

export interface SealingWorker {
  /** The box of `clear` bound to `associated`, as `sealBytes` makes it. */
  readonly seal: (clear: Uint8Array, associated: string) => Promise<string>
  readonly close: () => Promise<void>
}

/** A worker sealing under `dataKey`; it does not hold the process open. */
export const startSealingWorker = async (dataKey: Uint8Array): Promise<SealingWorker> => {
  const worker = new Worker(new URL(import.meta.url), { workerData: { sealingWorkerKey: dataKey } })
  worker.unref()
  const answering = new Map<number, ReadonlyArray<(box: string) => void>>()
  let nextId = 0
  let clears: Array<Uint8Array> = []
  let associated: Array<string> = []
  let waiting: Array<(box: string) => void> = []
  worker.on("message", ({ id, boxes }: Answer) => {
    const resolves = answering.get(id)
    answering.delete(id)
    for (const [i, box] of boxes.entries()) resolves?.[i]?.(box)
  })
  const send = () => {
    const id = nextId++
    answering.set(id, waiting)
    worker.postMessage({ id, clears, associated } satisfies Request)
    clears = []
    associated = []
    waiting = []
  }
  const sealer: SealingWorker = {
    seal: (clear, aad) =>
      new Promise((resolve) => {
        // The first box asked for in this turn sends the turn's boxes once the turn is over.
        if (waiting.length === 0) setImmediate(send)
        clears.push(clear)
        associated.push(aad)
        waiting.push(resolve)
      }),
    close: async () => {
      await worker.terminate()
    },
  }
  // The worker's start-up (loading this module and the package) is not the runs' to pay.
  await sealer.seal(new Uint8Array(1), "warm-up")
  return sealer
}

if (!isMainThread && (workerData as Partial<WorkerData> | null)?.sealingWorkerKey !== undefined) {
  const key = cipherKeyOf((workerData as WorkerData).sealingWorkerKey)
  parentPort?.on("message", ({ id, clears, associated }: Request) => {
    const boxes = clears.map((clear, i) => sealBytes(key, clear, associated[i]!))
    parentPort?.postMessage({ id, boxes } satisfies Answer)
  })
}
