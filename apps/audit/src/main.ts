#!/usr/bin/env node
/**
 * `mizan-audit`: replay, show, at, export, import (README.md).
 *
 *   npx node apps/audit/src/main.ts replay --store sqlite:data/mizan.db
 *
 * Relative paths start from the directory the command was started in (npm
 * scripts run in the package's directory, and pass that one as INIT_CWD).
 */
// Before any schema is used: decoders compiled to plain functions decode the
// log about twice as fast as the interpreter (README.md, Performance).
import "effect/schema/SchemaJITCompiler/enable"
import { runCli } from "./cli/cli.ts"

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.env.INIT_CWD ?? process.cwd(),
})
