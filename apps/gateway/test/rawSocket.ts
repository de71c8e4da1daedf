/** HTTP/1.1 over a raw socket: pipelined, slow or never-finished requests, as a hostile client sends them. */
import { connect, type Socket } from "node:net"

export interface RawExchange {
  /** Everything the server wrote before it closed the connection (or the wait ran out). */
  readonly text: string
  /** The statuses of the answers, in order. */
  readonly statuses: ReadonlyArray<number>
  /** Milliseconds from connecting to the server's close; undefined when the server did not close within the wait. */
  readonly closedAfterMs: number | undefined
}

export interface RawOptions {
  readonly localAddress?: string
  /** How long to wait for the server to close before giving up (the socket is then destroyed). */
  readonly waitMs?: number
  /** Resolve once this many answers have come, without waiting for a close. */
  readonly answers?: number
}

const statusesOf = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]))

/** Opens a connection to `port` on loopback. */
export const openRaw = (port: number, localAddress?: string) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, ...(localAddress === undefined ? {} : { localAddress }) })
    socket.once("connect", () => resolve(socket)).once("error", reject)
  })

/** Writes `bytes` on a new connection and collects what comes back. */
export const exchangeRaw = async (port: number, bytes: string, options: RawOptions = {}): Promise<RawExchange> => {
  const startedAt = performance.now()
  const socket = await openRaw(port, options.localAddress)
  return new Promise((resolve) => {
    let text = ""
    const done = (closedAfterMs: number | undefined) => {
      clearTimeout(timer)
      socket.destroy()
      resolve({ text, statuses: statusesOf(text), closedAfterMs })
    }
    const timer = setTimeout(() => done(undefined), options.waitMs ?? 5_000)
    socket.setEncoding("latin1")
    socket.on("data", (chunk: string) => {
      text += chunk
      if (options.answers !== undefined && statusesOf(text).length >= options.answers) done(undefined)
    })
    socket.on("error", () => {})
    socket.once("close", () => done(performance.now() - startedAt))
    socket.write(bytes)
  })
}

/** One POST to `path` with `body` and the headers given, as bytes on the wire. */
export const rawPost = (path: string, body: string, headers: Readonly<Record<string, string>> = {}) =>
  [
    `POST ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "",
    body,
  ].join("\r\n")
