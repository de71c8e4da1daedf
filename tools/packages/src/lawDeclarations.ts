/**
 * The kit's laws are declared by name: in an installed package, a law's
 * declaration (`dist/testing/laws.d.ts`) names the event type it reads
 * (`StreamLaw<Event, State>`) rather than write out the whole union of
 * events, hundreds of lines a user's editor shows on hover. A union
 * written out shows as its members' tags, `readonly _tag: "OrderCreated"`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

/** How an event written out in a declaration starts: its tag as a literal type. */
const writtenOutEvent = /readonly _tag: "/g

/** Each installed `@mizan` package whose laws' declaration writes events out, with how many; empty when none does. */
export const lawsWritingEventsOut = (folder: string): Array<string> => {
  const scope = join(folder, "node_modules", "@mizan")
  return readdirSync(scope).flatMap((name) => {
    const declaration = join(scope, name, "dist", "testing", "laws.d.ts")
    if (!existsSync(declaration)) return []
    const events = readFileSync(declaration, "utf8").match(writtenOutEvent)?.length ?? 0
    return events === 0 ? [] : [`@mizan/${name}/dist/testing/laws.d.ts writes ${events} event(s) out`]
  })
}

/** Throws naming every package whose laws' declaration writes its events out. */
export const checkLawDeclarations = (folder: string): void => {
  const problems = lawsWritingEventsOut(folder)
  if (problems.length > 0)
    throw new Error(
      `The laws' declarations must name their event types (StreamLaw, LifecycleLaw):\n  ${problems.join("\n  ")}`,
    )
}
