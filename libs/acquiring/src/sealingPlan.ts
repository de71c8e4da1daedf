import type { SealingPlan } from "@mizan/eventsourcing"

/** Each sharing member of a request's list is its own subject: a wallet member, by its identity's digest. */
const sharingMembers = {
  kind: "member",
  identifiedBy: "request.sharingParamList[].sharingIdentity",
  fields: ["request.sharingParamList[].sharingIdentity"],
}

/**
 * The personal fields of an acquiring order (issue 15), by data subject:
 * - the payer named by the order's `eid` (a national identity number's
 *   digest), a subject of the kind `payer`: the request's eid and its copy
 *   in the scene parameters in force;
 * - each sharing member, a subject of the kind `member`, the one a wallet
 *   transfer's beneficiary is, keyed by the same identity digest (a member
 *   id's or a phone number's): forgetting a member forgets the shares it
 *   was named in, item by item, on the order and on its refunds.
 * Refund orders record no sharing identity (only the members' positions),
 * so @mizan/refund has no plan. Each event schema reads a forgotten field
 * as `[forgotten]`.
 */
export const sealingPlan: SealingPlan = {
  events: {
    OrderCreated: [
      {
        kind: "payer",
        identifiedBy: "request.paySceneParams.eid",
        fields: ["request.paySceneParams.eid", "paySceneParams.eid"],
      },
      sharingMembers,
    ],
    RefundReserved: [sharingMembers],
  },
  streams: [],
}
