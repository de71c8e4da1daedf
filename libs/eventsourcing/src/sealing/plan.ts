/**
 * What a domain lib declares about its personal data, as plain data: which
 * fields of which event types belong to which data subject, and which
 * stream categories name a subject in their id. The lib stays pure (it
 * seals nothing); the sealed store (sealedStore.ts) reads the plans that
 * the composition merges (libs/order-views/src/sealing.ts).
 */

/** The personal fields one event carries about one data subject; sealed together, in one cipher. */
export interface SealedSubject {
  /** The kind of subject, the first part of its id: `card`, `member`, `iban`, `payer`... */
  readonly kind: string
  /**
   * The field whose value tells the subject apart (a card number's digest,
   * a member's identity digest). When the event lacks it, the subject is the
   * event's stream (or the one `otherwiseStreamAt` names): the fields then
   * belong to that one order, and `Sealing.forgetOfStream` forgets them. A path into
   * a list's items (`request.sharingParamList[].sharingIdentity`) makes one
   * subject of each item, whose fields are then paths into the same items.
   */
  readonly identifiedBy: string
  /**
   * The subject's fields; absent ones are skipped. A name of the event's
   * data, names joined by dots into nested objects (`order.cardNumber`),
   * and `[]` after a list's name for a field of each item (see paths.ts).
   */
  readonly fields: ReadonlyArray<string>
  /**
   * Seal only events that hold `identifiedBy`: for an event type that
   * carries several kinds of subject, one at a time (a notification's copy
   * of a card transfer, a wallet transfer, ...).
   */
  readonly onlyWhenIdentified?: boolean
  /**
   * `identifiedBy` holds its value in clear (a payer's member id), where
   * the other identifying fields hold the SHA-256 hex the edge made of a
   * card number or an identity: the subject is keyed by the value's
   * SHA-256 hex all the same, so that `forget KIND:VALUE` names it the one
   * way it names every subject, VALUE in clear or as its digest.
   */
  readonly identifiedInClear?: boolean
  /**
   * When the event lacks `identifiedBy`, the subject is the stream whose id
   * this field holds (a notification's `orderingKey`: the order it copies)
   * instead of the event's own stream, so that a copy is forgotten with
   * the order it was copied from.
   */
  readonly otherwiseStreamAt?: string
}

/** Streams whose id holds a personal value after the category: `memberAccount/<identity digest>`. */
export interface SealedStreamCategory {
  readonly category: string
}

export interface SealingPlan {
  /** By event type: the subjects whose fields it carries. */
  readonly events: Readonly<Record<string, ReadonlyArray<SealedSubject>>>
  readonly streams: ReadonlyArray<SealedStreamCategory>
}

/** The kinds of subject whose fields the plan seals, sorted: the only kinds a forget can find a key of. */
export const subjectKindsOf = (plan: SealingPlan): ReadonlyArray<string> =>
  [...new Set(Object.values(plan.events).flatMap((subjects) => subjects.map((subject) => subject.kind)))].sort()

/**
 * One plan from several. An event type or stream category declared twice is
 * a mistake in the composition (two libs claiming one type), so it throws
 * when the plans are merged, at start-up, naming the duplicate.
 */
export const mergeSealingPlans = (...plans: ReadonlyArray<SealingPlan>): SealingPlan => {
  const events: Record<string, ReadonlyArray<SealedSubject>> = {}
  const streams: Array<SealedStreamCategory> = []
  for (const plan of plans) {
    for (const [type, subjects] of Object.entries(plan.events)) {
      if (type in events) throw new Error(`sealing plans: event type ${type} is declared twice`)
      events[type] = subjects
    }
    for (const stream of plan.streams) {
      if (streams.some((s) => s.category === stream.category))
        throw new Error(`sealing plans: stream category ${stream.category} is declared twice`)
      streams.push(stream)
    }
  }
  return { events, streams }
}
