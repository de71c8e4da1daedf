/**
 * The packages' README examples as a user copies them: every code block
 * fenced as "```ts runnable" in a publishable lib's README is written to a
 * project of its own beside the example service (every tarball installed,
 * nothing from the workspace), type-checked with the example's strict
 * settings and run on the pinned Node; a block that does not compile, or
 * throws, fails `npm run test:examples`. Blocks fenced as plain "```ts"
 * are sketches that leave names to the reader (`myService`) and are not run.
 */

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { withoutUndefined } from "@mizan/kernel"
import { publishablePackages, tarballName } from "./publishable.ts"
import { type RunOptions, run } from "./run.ts"

/** The fence that marks a README's code block as a whole program: `npm run test:examples` compiles and runs it. */
export const runnableFence = "```ts runnable"

/** The runnable blocks of a Markdown text, in order, each without its fences. */
export const runnableBlocksOf = (markdown: string): Array<string> => {
  const blocks: Array<string> = []
  let block: Array<string> | undefined
  for (const line of markdown.split("\n")) {
    if (block === undefined) {
      if (line.trimEnd() === runnableFence) block = []
    } else if (line.trimEnd() === "```") {
      blocks.push(`${block.join("\n")}\n`)
      block = undefined
    } else block.push(line)
  }
  return blocks
}

export interface ReadmeExample {
  /** As `eventsourcing-1.ts`: the lib's folder name and the block's place among its README's runnable blocks. */
  readonly file: string
  readonly source: string
}

/** Every publishable lib's runnable README blocks, named after the lib. */
export const readmeExamples = (root: string): Array<ReadmeExample> =>
  publishablePackages(root).flatMap(({ folder }) => {
    const readme = join(root, folder, "README.md")
    if (!existsSync(readme)) return []
    return runnableBlocksOf(readFileSync(readme, "utf8")).map((source, i) => ({
      file: `${basename(folder)}-${i + 1}.ts`,
      source,
    }))
  })

interface ExampleManifest {
  readonly dependencies: Readonly<Record<string, string>>
  readonly devDependencies: Readonly<Record<string, string>>
  readonly allowScripts?: Readonly<Record<string, boolean>>
}

/**
 * Writes the README examples of the workspace at `root` into `folder`
 * (beside `<scratch>/dist` and the copied example service, whose pins of
 * effect, TypeScript, fast-check, vitest and Node it takes), installs every
 * tarball there, type-checks and runs each.
 */
export const checkReadmeExamples = (
  root: string,
  exampleService: string,
  folder: string,
  options: Pick<RunOptions, "env">,
): void => {
  const examples = readmeExamples(root)
  const service: ExampleManifest = JSON.parse(readFileSync(join(exampleService, "package.json"), "utf8"))
  const effect = service.dependencies.effect
  mkdirSync(folder, { recursive: true })
  const manifest = {
    name: "readme-examples",
    version: "0.0.0",
    private: true,
    type: "module",
    dependencies: {
      ...Object.fromEntries(
        publishablePackages(root).map(({ manifest }) => [manifest.name, `file:../dist/${tarballName(manifest)}`]),
      ),
      ...withoutUndefined({ effect }),
    },
    devDependencies: service.devDependencies,
    ...withoutUndefined({ allowScripts: service.allowScripts }),
  }
  writeFileSync(join(folder, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
  writeFileSync(
    join(folder, "tsconfig.json"),
    `${JSON.stringify({ extends: join(exampleService, "tsconfig.json"), include: ["*.ts"] }, null, 2)}\n`,
  )
  for (const { file, source } of examples) writeFileSync(join(folder, file), source)
  const at = { cwd: folder, ...options }
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], at)
  run("npx", ["tsc", "-p", "tsconfig.json"], at)
  for (const { file } of examples) run("npx", ["node", file], at)
}
