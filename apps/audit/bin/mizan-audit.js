#!/usr/bin/env node
// `mizan-audit` as a package installs it: the command line built into dist/
// (in this repository, `npm run audit` runs src/main.ts instead).
await import("../dist/main.js")
