/**
 * @mizan/test-clock: sandbox test clocks. Each merchant has its own time
 * (real time plus its offset); an advance is an event on the merchant's clock
 * stream, so it survives restarts, reaches every process through the log,
 * and never moves time back.
 */
export * from "./clockStream.ts"
export * from "./merchantClocks.ts"
