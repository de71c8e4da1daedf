/**
 * Per-merchant request rate limit (402 RATE_LIMIT_REJECT): a token bucket
 * per Partner-Id, refilled continuously. The spec does not give the
 * threshold; each merchant's is configured.
 */
import { type Bucket, fullBucket, type RateLimit, takeToken } from "./tokenBucket.ts"

export type { RateLimit } from "./tokenBucket.ts"

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>()
  private readonly limitOf: (partnerId: string) => RateLimit

  constructor(limitOf: (partnerId: string) => RateLimit) {
    this.limitOf = limitOf
  }

  /** Takes one request's token; false when the merchant is over its rate. */
  tryTake(partnerId: string, nowMs: number): boolean {
    const limit = this.limitOf(partnerId)
    const bucket = this.buckets.get(partnerId) ?? fullBucket(limit, nowMs)
    this.buckets.set(partnerId, bucket)
    return takeToken(bucket, limit, nowMs)
  }
}
