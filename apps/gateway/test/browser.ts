/**
 * A real headless Chromium for the pay page's browser tests
 * (@sparticuz/chromium, driven by playwright-core): one browser per test
 * file, a fresh context (no shared state) per page, axe-core to check a
 * page's accessibility, and screenshots kept under
 * the gateway's test-artifacts folder (gitignored) for people to look at.
 */
import { mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import chromium from "@sparticuz/chromium"
import { type Browser, type BrowserContextOptions, type Page, chromium as playwright } from "playwright-core"

/** Unpacking Chromium into the temp folder takes a few seconds the first time on a machine. */
export const browserStartMs = 60_000

/**
 * @sparticuz/chromium's flags are made for AWS Lambda. Its `--single-process`
 * brings the whole browser down when a context closes (found here: every
 * test after the first failed with "browser has been closed"); a machine
 * with more than Lambda's memory needs none of it.
 */
const browserArgs = chromium.args.filter((arg) => arg !== "--single-process")

export const launchBrowser = async (): Promise<Browser> =>
  playwright.launch({ executablePath: await chromium.executablePath(), args: browserArgs })

/** Opens a fresh browser context's page, runs `use`, and closes the context. */
export const withPage = async <A>(
  browser: Browser,
  use: (page: Page) => Promise<A>,
  options: BrowserContextOptions = {},
): Promise<A> => {
  const context = await browser.newContext(options)
  try {
    return await use(await context.newPage())
  } finally {
    await context.close()
  }
}

/** Where screenshots go: a folder git ignores (apps/gateway/.gitignore). */
export const artifactsFolder = new URL("../test-artifacts/", import.meta.url)

export const screenshot = async (page: Page, folder: string, name: string) => {
  const target = new URL(`${folder}/`, artifactsFolder)
  mkdirSync(target, { recursive: true })
  await page.screenshot({ path: new URL(`${name}.png`, target).pathname, fullPage: true })
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

export interface AxeViolation {
  readonly id: string
  readonly help: string
  readonly nodes: ReadonlyArray<{ readonly target: ReadonlyArray<unknown> }>
}

/**
 * axe-core's violations on the page (WCAG 2.x A and AA and best practices).
 * It is evaluated through the DevTools protocol, which the page's
 * Content-Security-Policy (no scripts at all) does not govern.
 */
export const axeViolations = async (page: Page): Promise<ReadonlyArray<AxeViolation>> => {
  await page.evaluate(axeSource)
  // Script text, not a function: the tests compile without the DOM's types.
  const violations = (await page.evaluate(
    "axe.run(document).then((result) => result.violations.map(({ id, help, nodes }) => ({ id, help, nodes: nodes.map(({ target }) => ({ target })) })))",
  )) as ReadonlyArray<AxeViolation>
  return violations
}
