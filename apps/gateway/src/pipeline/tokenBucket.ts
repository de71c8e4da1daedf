/** A token bucket refilled continuously: the merchants' rate limit and the unauthenticated budgets. */
export interface RateLimit {
  readonly requestsPerSecond: number
  readonly burstRequests: number
}

export interface Bucket {
  tokens: number
  updatedAtMs: number
}

export const fullBucket = (limit: RateLimit, nowMs: number): Bucket => ({
  tokens: limit.burstRequests,
  updatedAtMs: nowMs,
})

/** Refills `bucket` up to `nowMs`, then takes one token; false (nothing taken) when there is none. */
export const takeToken = (bucket: Bucket, limit: RateLimit, nowMs: number): boolean => {
  const elapsedMs = Math.max(0, nowMs - bucket.updatedAtMs)
  bucket.tokens = Math.min(limit.burstRequests, bucket.tokens + (elapsedMs / 1000) * limit.requestsPerSecond)
  bucket.updatedAtMs = nowMs
  if (bucket.tokens < 1) return false
  bucket.tokens -= 1
  return true
}

/** Gives back a token taken for a request that turned out not to count. */
export const returnToken = (bucket: Bucket, limit: RateLimit): void => {
  bucket.tokens = Math.min(limit.burstRequests, bucket.tokens + 1)
}
