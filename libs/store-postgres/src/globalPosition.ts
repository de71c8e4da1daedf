/**
 * Global positions that readers never see fill in behind them.
 *
 * A position is the appending transaction's id (PostgreSQL's 64-bit
 * `pg_current_xact_id()`) times 2^16, plus the event's place in its append
 * (1, 2, ...). Readers return only positions below the transaction id that
 * their own snapshot's `xmin` names: every transaction below it has ended,
 * committed or not, and no later transaction can be given a smaller id. So
 * everything a reader returns, and everything before it, is final; a
 * transaction still running holds readers back instead of being skipped.
 * See README.md, "The global order".
 */

/** The multiplier that leaves room for an append's events below the next transaction's positions. */
export const transactionStride = 65_536

/**
 * The most events one append may carry: each takes one slot of its
 * transaction's stride (slot 0 is left unused).
 */
export const appendBatchMaxEvents = transactionStride - 1

/** SQL for the first position of the current transaction's events, minus one. */
export const transactionBaseSql = `pg_current_xact_id()::text::bigint * ${transactionStride}`

/**
 * SQL for the first position no reader may return yet: the position of the
 * oldest transaction still running (or of the next one to start). The
 * multiplication raises "bigint out of range" rather than wrapping.
 */
export const visibleBelowSql = `pg_snapshot_xmin(pg_current_snapshot())::text::bigint * ${transactionStride}`

/** The transaction that recorded an event at this position (for tests and diagnostics). */
export const transactionOf = (position: bigint): bigint => position / BigInt(transactionStride)
