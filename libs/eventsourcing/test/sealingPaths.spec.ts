/**
 * The paths of a sealing plan, read into steps once when the sealer is made
 * (src/sealing/paths.ts): a plan's `[]` turns into each item's position, a
 * stored entry's concrete path reads back into the same steps, and writing
 * never changes the data it was given.
 */
import { describe, expect, it } from "vitest"
import { itemStepsOf, pathOf, stepsOf, valueAt, withValueAt } from "../src/sealing/paths.ts"

const data = {
  request: {
    eid: "e",
    groups: [{ members: [{ identity: "a" }, { identity: "b" }] }, { members: [] }, { members: [{ identity: "c" }] }],
  },
}

describe("sealing paths", () => {
  it("read a path into steps and write them back as the same path, list markers and positions included", () => {
    for (const path of ["cardNumber", "order.paySceneParams.eid", "request.sharingParamList[].sharingIdentity"])
      expect(pathOf(stepsOf(path))).toBe(path)
    expect(stepsOf("request.groups[2].members[0].identity")).toEqual(["request", "groups", 2, "members", 0, "identity"])
    expect(pathOf(["request", "groups", 2, "members", 0, "identity"])).toBe("request.groups[2].members[0].identity")
  })

  it("turn each [] into the positions of the items the data holds, lists within lists too, and none for an absent list", () => {
    const concrete = itemStepsOf(data, stepsOf("request.groups[].members[].identity")).map(pathOf)
    expect(concrete).toEqual([
      "request.groups[0].members[0].identity",
      "request.groups[0].members[1].identity",
      "request.groups[2].members[0].identity",
    ])
    expect(concrete.map((path) => valueAt(data, stepsOf(path)))).toEqual(["a", "b", "c"])
    expect(itemStepsOf(data, stepsOf("request.missing[].identity"))).toEqual([])
  })

  it("write and remove an item's field through copies, leaving the data given as it was", () => {
    const before = structuredClone(data)
    const removed = withValueAt(data, stepsOf("request.groups[0].members[1].identity"), undefined)
    expect(valueAt(removed as Record<string, unknown>, stepsOf("request.groups[0].members[1]"))).toEqual({})
    const set = withValueAt(removed, stepsOf("request.groups[0].members[1].identity"), "b")
    expect(set).toEqual(data)
    expect(data).toEqual(before)
  })
})
