/**
 * No function longer than 70 lines in `src/` (TigerBeetle's limit: a function
 * that fits on a screen is read whole). A function is counted from its first
 * line to its last; an anonymous one goes by the name of what holds it, so the
 * generator of `const f = () => Effect.gen(function* () { ... })` is `f`.
 */
import { qualifiedName } from "../names.ts"
import type { Finding, Rule } from "../rule.ts"
import { functionTypes, walk } from "../syntax.ts"

export const functionMaxLines = 70

export const functionLength: Rule = {
  id: "function-length",
  says: `a function in src/ is at most ${functionMaxLines} lines: split it into named parts`,
  ratchet: true,
  find: (file) => {
    const longest = new Map<string, Finding>()
    walk(file.program, (node, ancestors) => {
      if (!functionTypes.has(node.type)) return
      const line = file.lineOf(node.start)
      const lines = file.lineOf(node.end) - line + 1
      if (lines <= functionMaxLines) return
      const name = qualifiedName(node, ancestors)
      const known = longest.get(name)
      // The outermost function under a name is met first and is the longest.
      if (known === undefined) longest.set(name, { file: file.path, name, line, detail: `${lines} lines` })
    })
    return [...longest.values()]
  },
}
