import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import type { AppDeps } from "../../deps.ts";
import { newBuyOrder, paymentReturnUrl } from "./payments.service.ts";

const deps = { config: loadConfig({ NODE_ENV: "test" }, { CLINIC_PORTAL_URL_TEMPLATE: "https://mi.{alias}.cl" }) } as AppDeps;

describe("payment rules", () => {
  it("builds buy orders of at most 26 allowed characters, different each time", () => {
    const orders = new Set(Array.from({ length: 500 }, () => newBuyOrder(2_147_483_647)));
    expect(orders.size).toBe(500);
    for (const order of orders) expect(order).toMatch(/^[A-Za-z0-9-]{1,26}$/);
  });

  it("returns to the configured portal of the clinic in rcrLink, or of the request host", () => {
    expect(paymentReturnUrl(deps, "https://portalpacientes.clinicalircay.cl/x", undefined)).toEqual({
      url: "https://mi.clinicalircay.cl/dashboard/my-bills",
      clinicKey: "lircay-rcr",
    });
    expect(paymentReturnUrl(deps, undefined, "mi.clinicasur.cl").url).toBe("https://mi.clinicasur.cl/dashboard/my-bills");
  });

  it("never returns to an address outside the catalogue: an unknown site is the default clinic's portal", () => {
    expect(paymentReturnUrl(deps, "https://evil.example/mi.clinicasur.cl", undefined).url).toBe(
      "https://mi.clinicamaitenes.cl/dashboard/my-bills",
    );
  });
});
