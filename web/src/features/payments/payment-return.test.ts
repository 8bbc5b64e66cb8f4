import { describe, expect, it } from "vitest";
import { readPaymentReturn, withoutPaymentParams } from "./payment-return.ts";

describe("reading the return from the payment provider", () => {
  it("commits token_ws when present, even if the TBK parameters came too (error page, then back)", () => {
    const params = new URLSearchParams("token_ws=abc&TBK_TOKEN=abc&TBK_ORDEN_COMPRA=7-x&TBK_ID_SESION=s");
    expect(readPaymentReturn(params)).toEqual({ kind: "commit", token: "abc", buyOrder: "7-x" });
  });

  it("treats TBK_TOKEN as an aborted payment and keeps the order number to show", () => {
    expect(readPaymentReturn(new URLSearchParams("TBK_TOKEN=t1&TBK_ORDEN_COMPRA=7-x&TBK_ID_SESION=s"))).toEqual({
      kind: "aborted",
      token: "t1",
      buyOrder: "7-x",
    });
  });

  it("treats a lone TBK_ORDEN_COMPRA as a timed-out form", () => {
    expect(readPaymentReturn(new URLSearchParams("TBK_ORDEN_COMPRA=7-x&TBK_ID_SESION=s"))).toEqual({ kind: "timeout", buyOrder: "7-x" });
  });

  it("finds nothing on a normal visit", () => {
    expect(readPaymentReturn(new URLSearchParams("page=2"))).toBeNull();
  });

  it("drops only the provider's parameters from the address", () => {
    expect(withoutPaymentParams("/dashboard/my-bills", new URLSearchParams("token_ws=a&page=2"))).toBe("/dashboard/my-bills?page=2");
    expect(withoutPaymentParams("/dashboard/my-bills", new URLSearchParams("TBK_TOKEN=a&TBK_ID_SESION=b"))).toBe("/dashboard/my-bills");
  });
});
