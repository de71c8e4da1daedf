/**
 * Per-merchant request rate limit (402 RATE_LIMIT_REJECT): a token bucket
 * per Partner-Id, refilled continuously. The spec does not give the
 * threshold; each merchant's is configured.
 */
export interface RateLimit {
  readonly requestsPerSecond: number
  readonly burstRequests: number
}

interface Bucket {
  tokens: number
  updatedAtMs: number
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>()
  private readonly limitOf: (partnerId: string) => RateLimit

  constructor(limitOf: (partnerId: string) => RateLimit) {
    this.limitOf = limitOf
  }

  /** Takes one request's token; false when the merchant is over its rate. */
  tryTake(partnerId: string, nowMs: number): boolean {
    const limit = this.limitOf(partnerId)
    const bucket = this.buckets.get(partnerId) ?? { tokens: limit.burstRequests, updatedAtMs: nowMs }
    const elapsedMs = Math.max(0, nowMs - bucket.updatedAtMs)
    bucket.tokens = Math.min(limit.burstRequests, bucket.tokens + (elapsedMs / 1000) * limit.requestsPerSecond)
    bucket.updatedAtMs = nowMs
    this.buckets.set(partnerId, bucket)
    if (bucket.tokens < 1) return false
    bucket.tokens -= 1
    return true
  }
}
