import { describe, expect, it } from "vitest";
import { redactUrl } from "./log-redaction.ts";

describe("request log redaction", () => {
  it("hides reset and payment tokens in the query string and keeps the rest", () => {
    expect(redactUrl("/recover-password?token=abcDEF_123-x&rut=12.345.678-5")).toBe("/recover-password?token=[oculto]&rut=12.345.678-5");
    expect(redactUrl("/dashboard/my-bills?TBK_TOKEN=xyz&TBK_ORDEN_COMPRA=99")).toBe(
      "/dashboard/my-bills?TBK_TOKEN=[oculto]&TBK_ORDEN_COMPRA=99",
    );
    expect(redactUrl("/dashboard/my-bills?a=1&token_ws=e9d555262db0f989e49d724b4db0b0af367cc415cde41f500a776550fc5fddd3")).toBe(
      "/dashboard/my-bills?a=1&token_ws=[oculto]",
    );
    expect(redactUrl("/api/rcr/v1/health")).toBe("/api/rcr/v1/health");
  });
});
