import { describe, expect, it } from "vitest"
import { asksForHelp, CommandLineError, readCommandLine } from "../src/index.ts"

const options = { store: { type: "string" }, json: { type: "boolean" } } as const

const lineOf = (argv: ReadonlyArray<string>) => {
  try {
    readCommandLine("mizan-audit", argv, options)
  } catch (error) {
    expect(error).toBeInstanceOf(CommandLineError)
    return (error as CommandLineError).message
  }
  throw new Error("expected the command line to be refused")
}

describe("a tool's command line", () => {
  it("reads options, flags and positional words", () => {
    const line = readCommandLine("mizan-audit", ["replay", "--store", "sqlite:a.db", "--json"], options)
    expect(line).toEqual({ help: false, values: { store: "sqlite:a.db", json: true }, positionals: ["replay"] })
  })

  it.each([[["--help"]], [["replay", "-h"]], [["--store", "x", "--help", "--nonsense"]]])(
    "asks for the usage with %j, before anything else is read",
    (argv) => {
      expect(readCommandLine("mizan-audit", argv, options)).toEqual({ help: true })
    },
  )

  it("does not take --help after -- as a request for help", () => {
    expect(asksForHelp(["--", "--help"])).toBe(false)
  })

  it("says an unknown option in one line with the tool's name and where to look", () => {
    expect(lineOf(["replay", "--x"])).toBe("mizan-audit: unknown option --x; --help for usage")
    expect(lineOf(["replay", "--stor=sqlite:a.db"])).toBe("mizan-audit: unknown option --stor; --help for usage")
  })

  it("says an option that lacks its value in one line", () => {
    expect(lineOf(["replay", "--store"])).toBe("mizan-audit: --store needs a value; --help for usage")
  })

  it("takes a negative number after an option as its value, for the tool to say what it takes", () => {
    const line = readCommandLine("mizan-audit", ["at", "--store", "-1", "--store", "-.5"], options)
    expect(line).toMatchObject({ values: { store: "-.5" } })
    expect(readCommandLine("mizan-audit", ["at", "--store", "-1"], options)).toMatchObject({ values: { store: "-1" } })
    // An option, or a word after --, is never taken for a value.
    expect(lineOf(["replay", "--store", "--json"])).toBe("mizan-audit: --store needs a value; --help for usage")
    expect(lineOf(["replay", "--store", "-x"])).toBe("mizan-audit: --store needs a value; --help for usage")
    expect(readCommandLine("mizan-audit", ["at", "--", "--store", "-1"], options)).toMatchObject({
      positionals: ["at", "--store", "-1"],
    })
  })

  it("exits 2 for a line it cannot read", () => {
    expect(new CommandLineError("x").exitCode).toBe(2)
  })
})
