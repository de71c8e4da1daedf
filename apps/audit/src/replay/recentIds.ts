/**
 * The last few stream ids a replayer read, newest overwriting oldest: what a
 * part of a parallel replay keeps of the streams other parts hold, so that
 * an order-number index, written right after the stream it names, finds
 * that stream read already without asking the part that holds it
 * (replay.ts, `readAlready`). A fixed ring, searched from end to end: a
 * handful of string comparisons an index, nothing allocated an event.
 */
export class RecentIds {
  readonly #ids: Array<string>
  #next = 0

  constructor(size: number) {
    this.#ids = Array.from({ length: size }, () => "")
  }

  add(streamId: string): void {
    this.#ids[this.#next] = streamId
    this.#next = (this.#next + 1) % this.#ids.length
  }

  has(streamId: string): boolean {
    // "" fills the slots not written yet, and no stream has it for its id.
    return streamId !== "" && this.#ids.includes(streamId)
  }
}
