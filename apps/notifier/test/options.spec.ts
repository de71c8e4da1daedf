import { describe, expect, it, vi } from "vitest"
import { notifierDefaults, notifierSettings } from "../src/options.ts"

const required = { sign: () => "signature", mode: "sandbox" } as const

describe("the notifier's options", () => {
  it("reads answerBytesMax, the bound's name before its unit went last, as answerMaxBytes, with a warning", () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {})
    const settings = notifierSettings({ ...required, answerBytesMax: 64 })
    const warnings = warn.mock.calls.map(([warning]) => warning)
    warn.mockRestore()
    expect(settings.answerMaxBytes).toBe(64)
    expect(Object.hasOwn(settings, "answerBytesMax")).toBe(false)
    expect(warnings).toEqual([
      "notifier options: answerBytesMax is now answerMaxBytes: the old name is still read, for now; write the new one",
    ])
  })

  it("takes answerMaxBytes without a warning, its default 1024 when it is not given", () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {})
    expect(notifierSettings({ ...required, answerMaxBytes: 32 }).answerMaxBytes).toBe(32)
    expect(notifierSettings(required).answerMaxBytes).toBe(1_024)
    expect(notifierDefaults.answerMaxBytes).toBe(1_024)
    expect(warn).not.toHaveBeenCalled()
    warn.mockRestore()
  })
})
