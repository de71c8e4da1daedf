/**
 * The master keys that wrap every data key. A port, so that a
 * cloud KMS can take the key file's place: the sealed store asks it to wrap
 * a fresh data key and to unwrap a stored one, and never sees a master key.
 */
import { Context, type Effect, Schema } from "effect"

export class KeyRingError extends Schema.TaggedError<KeyRingError>()("KeyRingError", {
  detail: Schema.String,
  cause: Schema.optionalKey(Schema.Unknown),
}) {
  override get message(): string {
    return this.detail
  }
}

export interface WrappedKey {
  /** The data key sealed under the master key, Base64. */
  readonly wrapped: string
  /** Which master key wrapped it: unwrapping needs the same one. */
  readonly masterKeyId: string
}

export class KeyRing extends Context.Service<
  KeyRing,
  {
    /** The master key new data keys are wrapped with. */
    readonly currentMasterKeyId: Effect.Effect<string, KeyRingError>
    readonly wrap: (dataKey: Uint8Array) => Effect.Effect<WrappedKey, KeyRingError>
    /** Fails when the master key is unknown (retired, or another key file) or the wrapped key was altered. */
    readonly unwrap: (key: WrappedKey) => Effect.Effect<Uint8Array, KeyRingError>
  }
>()("@mizan/eventsourcing/KeyRing") {}

export type KeyRingShape = KeyRing["Service"]
