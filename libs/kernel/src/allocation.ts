/**
 * Exact splits of an amount in fils. Every split allocates its remainder
 * explicitly, so the parts always sum to the whole and no part exceeds its
 * own limit.
 */
import { type Fils, fils } from "./money.ts"

/**
 * Splits `total` into parts proportional to `weights` by the largest
 * remainder method: each part first gets the floor of its exact share; the
 * fils left over go one each to the parts with the largest fractional
 * remainders, ties to the earlier part. With `total <= sum(weights)` no part
 * exceeds its weight, so a proportional refund never takes from an account
 * more than it received.
 *
 * The exact shares are computed in bigint, so no float rounding enters.
 */
export const allocateProportionally = (total: Fils, weights: ReadonlyArray<Fils>): ReadonlyArray<Fils> => {
  const weightSum = weights.reduce((sum, w) => sum + BigInt(w), 0n)
  if (weights.length === 0) {
    if (total !== 0) throw new RangeError("cannot allocate an amount over no parts")
    return []
  }
  if (weightSum === 0n) {
    if (total !== 0) throw new RangeError("cannot allocate an amount over parts that weigh nothing")
    return weights.map(() => fils(0))
  }
  const totalBig = BigInt(total)
  const floors = weights.map((w) => (totalBig * BigInt(w)) / weightSum)
  const remainders = weights.map((w) => (totalBig * BigInt(w)) % weightSum)
  let left = totalBig - floors.reduce((sum, f) => sum + f, 0n)
  const order = weights
    .map((_, index) => index)
    .sort((a, b) => {
      const ra = remainders[a] as bigint
      const rb = remainders[b] as bigint
      return ra === rb ? a - b : ra > rb ? -1 : 1
    })
  const parts = [...floors]
  for (const index of order) {
    if (left === 0n) break
    parts[index] = (parts[index] as bigint) + 1n
    left -= 1n
  }
  return parts.map((part) => fils(Number(part)))
}

/**
 * A fee of `basisPoints` (1/100 of a percent) of `amount` plus `fixedFils`,
 * rounded half up to the fils, and never more than the amount itself.
 */
export const percentageFee = (amount: Fils, basisPoints: number, fixedFils: Fils): Fils => {
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0) throw new RangeError(`not a fee rate: ${basisPoints}`)
  const proportional = (BigInt(amount) * BigInt(basisPoints) + 5_000n) / 10_000n
  const fee = proportional + BigInt(fixedFils)
  return fils(Number(fee > BigInt(amount) ? BigInt(amount) : fee))
}
