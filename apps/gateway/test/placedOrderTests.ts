/**
 * The tests the bank and the bank card transfer share word for word: the
 * query answers a placed order to its merchant only, the sandbox cannot
 * drive another merchant's order, and in production (nothing outside
 * connected) a placed order stays CREATED. Each spec says how its kind is
 * placed and read; the tests are written once here.
 */
import { describe, expect, it } from "vitest"
import { newNumber, type TestGateway } from "./harness.ts"
import { suiteGateway } from "./suiteGateway.ts"
import {
  expectQueryAnswersOnlyOwnOrders,
  expectSandboxReachesOnlyOwnOrders,
  startProductionGateway,
  streamLength,
} from "./transferSupport.ts"

/** An order as the place and get operations answer it, as far as these tests read it. */
interface PlacedOrder {
  readonly orderNo: string
  readonly status?: string
}

/** How the shared tests place and read one kind of transfer order, always as M1. */
export interface PlacedOrderKind {
  /** The newNumber prefix of this kind's merchantOrderNos. */
  readonly numberPrefix: string
  readonly queryPath: "/transfer/getTransferToBankOrder" | "/transfer/getTransferToBankCard"
  readonly streamId: (merchantId: string, merchantOrderNo: string) => string
  /** Places an order with the spec's default request on `gateway`; answers the placed order. */
  readonly place: (merchantOrderNo: string, gateway: TestGateway) => Promise<PlacedOrder>
  /** The order as the query answers it on the suite's gateway. */
  readonly get: (merchantOrderNo: string) => Promise<PlacedOrder>
}

/** The query's describe block: it answers the order as placed, and to no other merchant. */
export const describeOrderQuery = (title: string, gateway: TestGateway, kind: PlacedOrderKind) =>
  describe(title, () => {
    it("answers the order as placed", async () => {
      const no = newNumber(kind.numberPrefix)
      const placed = await kind.place(no, gateway)
      expect(await kind.get(no)).toEqual(placed)
    })

    it("answers 62004 for a merchantOrderNo it never saw, and for another merchant's order", async () => {
      const no = newNumber(kind.numberPrefix)
      await kind.place(no, gateway)
      await expectQueryAnswersOnlyOwnOrders(gateway, kind.queryPath, no)
    })
  })

/**
 * The sandbox test that another merchant cannot drive the order through
 * `helper` (with the rest of its request in `fields`), and that the order is
 * left as it was.
 */
export const itReachesOnlyOwnOrders = (
  gateway: TestGateway,
  kind: PlacedOrderKind,
  helper: string,
  fields: Record<string, unknown>,
) =>
  it("cannot reach another merchant's transfer: 62004 by merchantOrderNo, 62035 by orderNo", async () => {
    const no = newNumber(kind.numberPrefix)
    const { orderNo } = await kind.place(no, gateway)
    await expectSandboxReachesOnlyOwnOrders(gateway, helper, { merchantOrderNo: no, orderNo }, fields)
    expect((await kind.get(no)).status).toBe("CREATED")
  })

/** The describe block of a production gateway, where the order is placed and stays CREATED. */
export const describeProductionKeepsOrderCreated = (title: string, kind: PlacedOrderKind) =>
  describe(title, () => {
    const production = suiteGateway(startProductionGateway)

    it("keeps the order CREATED and answers it", async () => {
      const no = newNumber(kind.numberPrefix)
      expect(await kind.place(no, production)).toMatchObject({ merchantOrderNo: no, status: "CREATED" })
      expect(await streamLength(production, kind.streamId("M1", no))).toBe(1)
    })
  })
