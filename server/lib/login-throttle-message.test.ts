import { describe, expect, it } from "vitest";
import { tooManyAttemptsMessageFor } from "./login-throttle.ts";

// Issue 33: a throttled login says how long to wait, in whole minutes rounded up.
describe("tooManyAttemptsMessageFor", () => {
  it("says 'Espere un minuto' up to a minute and 'Espere N minutos' beyond", () => {
    expect(tooManyAttemptsMessageFor(5_000)).toBe("Demasiados intentos fallidos. Espere un minuto e intente nuevamente.");
    expect(tooManyAttemptsMessageFor(60_000)).toBe("Demasiados intentos fallidos. Espere un minuto e intente nuevamente.");
    expect(tooManyAttemptsMessageFor(61_000)).toBe("Demasiados intentos fallidos. Espere 2 minutos e intente nuevamente.");
    expect(tooManyAttemptsMessageFor(15 * 60_000)).toBe("Demasiados intentos fallidos. Espere 15 minutos e intente nuevamente.");
  });
});
