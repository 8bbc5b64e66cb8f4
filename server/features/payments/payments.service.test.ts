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

  it("fills a buy order to 26 characters with randomness, at least six letters or digits for the largest bill id", () => {
    // Three random bytes (hex) collided once in 500 orders of one millisecond in CI: about 1 in 130 runs.
    const largest = newBuyOrder(2_147_483_647, new Date("2026-11-30T12:00:00Z"));
    expect(largest).toHaveLength(26);
    expect(largest.split("-")[2]).toMatch(/^[A-Za-z0-9]{6}$/);
    const small = newBuyOrder(7, new Date("2026-11-30T12:00:00Z"));
    expect(small).toHaveLength(26);
    expect(small.split("-")[2]).toMatch(/^[A-Za-z0-9]{15}$/);
    const randomParts = Array.from({ length: 20 }, () => newBuyOrder(7).split("-")[2]).join("");
    expect(randomParts).toMatch(/[g-zA-Z]/); // the whole allowed alphabet, not only hexadecimal digits
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
