import { Schema } from "effect"

/**
 * What a personal field reads as once its data subject has been forgotten
 * (crypto-shredding). The store keeps the event; the field's
 * sealed value can no longer be opened, so every reader (replay, views,
 * answers, notifications, the audit) sees this text instead.
 */
export const forgotten = "[forgotten]" as const

export const Forgotten = Schema.Literal(forgotten)
export type Forgotten = typeof Forgotten.Type

/**
 * A personal field of a recorded event: its value, or `[forgotten]`. Event
 * schemas use it for every field a sealing plan seals, so that a forgotten
 * subject's events still decode and replay; commands keep the plain schema,
 * since a request never carries the placeholder.
 */
export const Personal = <S extends Schema.Top>(schema: S) => Schema.Union([schema, Forgotten])

export const isForgotten = (value: unknown): value is Forgotten => value === forgotten
