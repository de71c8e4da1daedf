/**
 * A seeded pseudo-random generator, so that a seed always writes the same
 * history. sfc32 (Chris Doty-Humphrey's small fast counter), seeded through
 * splitmix32: fast, 128 bits of state, and good enough for test data (it is
 * no source of secrets).
 */
export interface Random {
  /** A float in [0, 1). */
  readonly next: () => number
  /** An integer in [min, max], both included. */
  readonly int: (min: number, max: number) => number
  /** True with probability `p`. */
  readonly chance: (p: number) => boolean
  readonly pick: <A>(items: ReadonlyArray<A>) => A
  /** One of the keys, chosen in proportion to its weight. */
  readonly weighted: <K extends string>(weights: Readonly<Record<K, number>>) => K
  /** `count` decimal digits. */
  readonly digits: (count: number) => string
  /** `count` lower-case hex digits. */
  readonly hex: (count: number) => string
  /** A delay with the given mean, exponentially distributed (arrivals of a Poisson process), in whole ms. */
  readonly exponentialMs: (meanMs: number) => number
}

const splitmix32 = (seed: number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x9e3779b9) >>> 0
    let z = state
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
    return (z ^ (z >>> 16)) >>> 0
  }
}

export const makeRandom = (seed: number): Random => {
  const seeder = splitmix32(seed)
  let a = seeder()
  let b = seeder()
  let c = seeder()
  let d = seeder()
  const nextUint32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0
    d = (d + 1) >>> 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) >>> 0
    c = ((c << 21) | (c >>> 11)) >>> 0
    c = (c + t) >>> 0
    return t
  }
  // Mix the seed in before the first use, as sfc32's authors advise.
  for (let i = 0; i < 12; i++) nextUint32()

  const next = () => nextUint32() / 4_294_967_296
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const pick = <A>(items: ReadonlyArray<A>): A => {
    if (items.length === 0) throw new RangeError("pick from an empty list")
    return items[int(0, items.length - 1)]!
  }
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick,
    weighted: <K extends string>(weights: Readonly<Record<K, number>>): K => {
      const entries = Object.entries(weights) as Array<[K, number]>
      const total = entries.reduce((sum, [, w]) => sum + w, 0)
      let roll = next() * total
      for (const [key, weight] of entries) {
        roll -= weight
        if (roll < 0) return key
      }
      return entries[entries.length - 1]![0]
    },
    digits: (count) => {
      let text = ""
      for (let i = 0; i < count; i++) text += String(int(0, 9))
      return text
    },
    hex: (count) => {
      let text = ""
      for (let i = 0; i < count; i++) text += int(0, 15).toString(16)
      return text
    },
    exponentialMs: (meanMs) => Math.max(1, Math.round(-Math.log(1 - next()) * meanMs)),
  }
}
