import { describe, expect, it } from "vitest";
import { redactRutsInText, redactUrl } from "./log-redaction.ts";

describe("request log redaction", () => {
  it("hides reset and payment tokens in the query string and keeps the rest", () => {
    expect(redactUrl("/recover-password?token=abcDEF_123-x&lang=es")).toBe("/recover-password?token=[oculto]&lang=es");
    expect(redactUrl("/dashboard/my-bills?TBK_TOKEN=xyz&TBK_ORDEN_COMPRA=99")).toBe(
      "/dashboard/my-bills?TBK_TOKEN=[oculto]&TBK_ORDEN_COMPRA=99",
    );
    expect(redactUrl("/dashboard/my-bills?a=1&token_ws=e9d555262db0f989e49d724b4db0b0af367cc415cde41f500a776550fc5fddd3")).toBe(
      "/dashboard/my-bills?a=1&token_ws=[oculto]",
    );
    expect(redactUrl("/api/rcr/v1/health")).toBe("/api/rcr/v1/health");
  });

  it("hides RUTs in every spelling, in the query string and in the path", () => {
    expect(redactUrl("/recover-password?token=abc&rut=12.345.678-5")).toBe("/recover-password?token=[oculto]&rut=[oculto]");
    expect(redactUrl("/api/rcr/v1/files/accounts/12.345.678-5?page=2")).toBe("/api/rcr/v1/files/accounts/[rut]?page=2");
    expect(redactUrl("/api/rcr/v1/files/accounts/12345678-5")).toBe("/api/rcr/v1/files/accounts/[rut]");
    expect(redactUrl("/api/rcr/v1/files/accounts/9876543-K")).toBe("/api/rcr/v1/files/accounts/[rut]");
    expect(redactUrl("/api/rcr/v1/files/accounts/123456785")).toBe("/api/rcr/v1/files/accounts/[rut]");
    expect(redactUrl("/x?other=1.234.567-k")).toBe("/x?other=[rut]");
  });

  it("hides search terms, tRPC inputs and e-mail addresses but keeps ids, pages and sorts", () => {
    expect(redactUrl("/api/rcr/v1/admin/filter/users?param=Gonz%C3%A1lez&page=2&limit=10")).toBe(
      "/api/rcr/v1/admin/filter/users?param=[oculto]&page=2&limit=10",
    );
    expect(redactUrl('/trpc/users.list?input={"param":"ana"}')).toBe("/trpc/users.list?input=[oculto]");
    expect(redactUrl("/api/rcr/v1/admin/42?clinic=hcs-rcr")).toBe("/api/rcr/v1/admin/42?clinic=hcs-rcr");
    expect(redactUrl("/api/rcr/v1/files/list/1234?orderBy=monto")).toBe("/api/rcr/v1/files/list/1234?orderBy=monto");
  });

  it("hides RUTs written with a hyphen or dots inside any log text, without touching numbers, UUIDs or tokens", () => {
    expect(redactRutsInText('{"msg":"Key (rut)=(12345678-5) already exists","x":"9.876.543-K"}')).toBe(
      '{"msg":"Key (rut)=([rut]) already exists","x":"[rut]"}',
    );
    const untouched = [
      '{"time":1795414636376,"amount":12345678,"responseTime":0.12345678}',
      '{"reqId":"12345678-1a2b-4c3d-8e9f-0123456789ab"}',
      '{"reqId":"12345678-1234-4c3d-8e9f-0123456789ab"}',
      '{"buyOrder":"P12345678-5x","token":"ab12345678-9"}',
    ];
    for (const line of untouched) expect(redactRutsInText(line)).toBe(line);
  });
});
