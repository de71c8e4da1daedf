/**
 * One broken rule of one state: the rule (a sentence its domain lib names,
 * the same for every breach) and what is wrong this time. Every domain
 * lib's invariants answer these, and the audit reports them.
 */
export interface BrokenRule {
  readonly rule: string
  readonly detail: string
}

/** The rule every order that carries an amount keeps (acquiring's totalAmount is checked by its command's schema). */
export const amountAboveZeroRule = "the amount is above zero"

/** The amount rule, broken or not: a list to spread into an invariants' list. */
export const amountAboveZero = (amountFils: number): ReadonlyArray<BrokenRule> =>
  amountFils > 0 ? [] : [{ rule: amountAboveZeroRule, detail: `amount ${amountFils} fils` }]
