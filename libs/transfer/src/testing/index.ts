/**
 * `@mizan/transfer/testing`: a reference model of one wallet transfer
 * (`predictWallet`), written apart from the decider with the spec's limits
 * as numbers, and random commands aimed at those limits (`walletCommand`),
 * for both-sided proofs: what is within AED 10,000 and AED 20,000 is placed,
 * what is one fils past either fails with its failCode. And the property
 * kit of every transfer aggregate (wallet, bank transfer, member account,
 * deposit): histories decided by the real aggregates, late retries, and
 * their rules, lifecycles and limits as laws (README.md lists them).
 */

export * from "./bankBuilders.ts"
export * from "./bankHistories.ts"
export * from "./depositHistories.ts"
export * from "./digests.ts"
export * from "./laws.ts"
export * from "./memberBuilders.ts"
export * from "./memberHistories.ts"
export * from "./walletBuilders.ts"
export * from "./walletHistories.ts"
export * from "./walletModel.ts"
export * from "./walletSteps.ts"
