// Keeps every platform-specific optional package in package-lock.json.
//
// Why: the registry these machines reach lacks most per-platform binaries of
// nx and biome (`@nx/nx-darwin-arm64`, ...). `npm install` then silently drops
// them from the lockfile, and `npm ci` on a fresh clone refuses the lockfile
// ("Missing: @nx/nx-darwin-arm64@ from lock file"). This script puts back an
// entry for each missing one, with the `os`/`cpu`/`libc` read off its name, so
// npm ci knows it is for another platform and skips it. It runs as the root
// `postinstall` and is idempotent. Plain ESM so that it runs on any Node.
import { readFileSync, writeFileSync } from "node:fs"

const lockPath = new URL("../../package-lock.json", import.meta.url)
const lock = JSON.parse(readFileSync(lockPath, "utf8"))
const packages = lock.packages ?? {}

const osNames = ["darwin", "linux", "win32", "freebsd", "openbsd", "android", "sunos", "aix", "netbsd"]
const cpuNames = ["arm64", "x64", "ia32", "arm", "ppc64", "s390x", "riscv64", "loong64", "mips64el"]

/** The platform a package is for, read off the words of its name, or undefined. */
export function platformOf(name) {
  const words = name.split("/").pop().split("-")
  const os = osNames.find((o) => words.includes(o))
  const cpu = cpuNames.find((c) => words.includes(c))
  if (os === undefined || cpu === undefined) return undefined
  const libc = words.includes("musl")
    ? "musl"
    : words.includes("gnu") || words.some((w) => w.startsWith("gnueabi"))
      ? "glibc"
      : undefined
  return { os: [os], cpu: [cpu], ...(os === "linux" && libc ? { libc: [libc] } : {}) }
}

let added = 0
for (const [path, entry] of Object.entries({ ...packages })) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const parentDir = path === "" ? "" : `${path}/`
    const nested = `${parentDir}node_modules/${dep}`
    const hoisted = `node_modules/${dep}`
    if (packages[nested] || packages[hoisted]) continue
    const platform = platformOf(dep)
    if (platform === undefined) continue
    packages[hoisted] = { version, dev: entry.dev, optional: true, ...platform }
    if (packages[hoisted].dev === undefined) delete packages[hoisted].dev
    added++
  }
}

if (added > 0) {
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)),
  )
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`)
  console.log(`keep-platform-packages: restored ${added} platform package entries in package-lock.json`)
}
