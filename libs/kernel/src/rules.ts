/**
 * One broken rule of one state: the rule (a sentence its domain lib names,
 * the same for every breach) and what is wrong this time. Every domain
 * lib's invariants answer these, and the audit reports them.
 */
export interface BrokenRule {
  readonly rule: string
  readonly detail: string
}
