/**
 * The module-boundary check of `npm test` (docs/architecture.md#layers-and-what-may-import-what):
 * - a domain lib (tag scope:domain) imports only @mizan/kernel,
 *   @mizan/eventsourcing and effect: no store, app, HTTP, file system or clock;
 *   its `src/testing/` (the package's testing entry: models and arbitraries for
 *   tests) may also import fast-check;
 * - a lib never imports an app, and an app imports no other app but in the
 *   one place that composes them (`appCompositions`);
 * - every @mizan import is declared in the importer's package.json, so that
 *   Nx's project graph (and its cache) sees the dependency;
 * - no source imports the index of a package whose index loads far more than
 *   any one use needs (`wholeIndexes`): every process start would pay for it;
 * - no lib that speaks the domain's language (`speaksDomainLanguage`) names
 *   `bizContent`, the wire's body: its refusals name the fields of its
 *   commands (`amountFils`), and the gateway alone writes them as the wire's.
 * It reads the workspace's package.json tags, every import in src/ and, in
 * the domain's libs, every line of src/.
 * Run as a script, it also runs the import-circle check (circles.ts).
 */
import { readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { importCircles } from "./circles.ts"
import { importsOf, packageOf, readProjects, sourceFiles } from "./imports.ts"

export { importsOf }

const domainMayImport = new Set(["effect", "@mizan/kernel", "@mizan/eventsourcing"])
/** What a domain lib's testing entry may import besides: the property-testing library its arbitraries are made of. */
const domainTestingMayImport = new Set([...domainMayImport, "fast-check"])

/**
 * The only source files that may import another app: `npm start` runs the
 * notifier in the gateway's process, and that composition lives in one file.
 */
export const appCompositions: ReadonlyMap<string, string> = new Map([
  ["apps/gateway/src/startup/service.ts", "@mizan/notifier"],
])

/**
 * Packages whose index loads every module they have, each imported by its
 * modules' own paths instead, with what the index costs a process's start.
 */
export const wholeIndexes: ReadonlyMap<string, string> = new Map([
  [
    "@effect/platform-node",
    "its index loads every module, its HTTP client and undici among them (about 0.4 s a start): import @effect/platform-node/NodeHttpServer and the like",
  ],
])

/** The layers whose libs speak the domain's language (docs/architecture.md#layers-and-what-may-import-what). */
const domainLanguageTags: ReadonlySet<string> = new Set(["scope:kernel", "scope:domain", "scope:flows"])
/** Libs of another layer whose events and refusals are the domain's too: the sandbox's test clocks. */
const domainLanguageLibs: ReadonlySet<string> = new Set(["@mizan/test-clock"])

/** Whether a project's sources must name the domain's fields, never the wire's. */
export const speaksDomainLanguage = (project: { readonly name: string; readonly tags: ReadonlyArray<string> }) =>
  domainLanguageLibs.has(project.name) || project.tags.some((tag) => domainLanguageTags.has(tag))

/** The wire's name for a request's body: a field path that starts with it is the wire's, not the domain's. */
const wireBody = "bizContent"

/** Each line of `source` that names the wire's body, as `file:line`. */
const wireBodyLines = (where: string, source: string): Array<string> =>
  source.split("\n").flatMap((line, index) => (line.includes(wireBody) ? [`${where}:${index + 1}`] : []))

/** Every broken boundary of the workspace at `root`, one sentence each. */
export const boundaryProblems = (root: string): Array<string> => {
  const projects = readProjects(root)
  const byName = new Map(projects.map((p) => [p.name, p]))
  const problems: Array<string> = []

  for (const project of projects) {
    const srcDir = join(project.dir, "src")
    if (statSync(srcDir, { throwIfNoEntry: false }) === undefined) continue
    const isLib = relative(root, project.dir).startsWith("libs")
    for (const file of sourceFiles(srcDir)) {
      const where = relative(root, file)
      const allowed = relative(srcDir, file).startsWith("testing") ? domainTestingMayImport : domainMayImport
      const source = readFileSync(file, "utf8")
      if (speaksDomainLanguage(project))
        for (const line of wireBodyLines(where, source))
          problems.push(
            `${line}: names ${wireBody}, the wire's body: a domain lib names its commands' fields (amountFils), and the gateway maps them to the wire's`,
          )
      for (const specifier of importsOf(source)) {
        if (specifier.startsWith(".")) continue
        const pkg = packageOf(specifier)
        const target = byName.get(pkg)
        if (project.tags.includes("scope:domain") && !allowed.has(pkg))
          problems.push(
            `${where}: a domain lib may import only effect, @mizan/kernel and @mizan/eventsourcing${allowed === domainMayImport ? "" : " (and fast-check in src/testing)"}, not ${specifier}`,
          )
        if (isLib && target?.tags.includes("scope:app")) problems.push(`${where}: a lib must not import the app ${pkg}`)
        const isApp = project.tags.includes("scope:app")
        if (isApp && target?.tags.includes("scope:app") && pkg !== project.name && appCompositions.get(where) !== pkg)
          problems.push(
            `${where}: an app must not import the app ${pkg} (only ${[...appCompositions.keys()].join(", ")} composes apps)`,
          )
        const wholeIndex = wholeIndexes.get(specifier)
        if (wholeIndex !== undefined) problems.push(`${where}: imports ${specifier}: ${wholeIndex}`)
        if (pkg.startsWith("@mizan/") && pkg !== project.name && !project.declared.has(pkg))
          problems.push(`${where}: imports ${pkg}, which ${project.name}'s package.json does not declare`)
      }
    }
  }

  return problems
}

if (import.meta.main) {
  const root = join(import.meta.dirname, "..", "..")
  const problems = boundaryProblems(root)
  const circles = importCircles(root)
  if (problems.length > 0)
    console.error(`Module boundaries: ${problems.length} broken\n${problems.map((p) => `  ${p}`).join("\n")}`)
  else console.log("Module boundaries: 0 broken")
  if (circles.length > 0) console.error(`Import circles: ${circles.length}\n${circles.map((c) => `  ${c}`).join("\n")}`)
  else console.log("Import circles: 0")
  if (problems.length > 0 || circles.length > 0) process.exit(1)
}
