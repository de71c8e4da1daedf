/**
 * `@mizan/eventsourcing/sealing`: sealed personal data (docs/architecture.md#sealed-personal-data):
 * the sealing plan, the sealer and its cipher, the store wrapper that seals
 * on append and opens on read, the key ring, subject keys and the master
 * key file, and forgetting a subject. In this lib because it wraps the
 * `EventStore` port and every store's key table implements `SubjectKeys`
 * (docs/decisions/0010-eventsourcing-holds-integrity.md).
 */
export * from "./cipher.ts"
export * from "./forgetRecord.ts"
export * from "./KeyRing.ts"
export * from "./masterKeys.ts"
export * from "./memorySubjectKeys.ts"
export * from "./plan.ts"
export * from "./SubjectKeys.ts"
export * from "./sealedStore.ts"
export * from "./sealer.ts"
