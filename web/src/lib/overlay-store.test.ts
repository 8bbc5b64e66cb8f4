import { afterEach, describe, expect, it, vi } from "vitest";
import { hideToast, overlaySnapshot, showToast, TOAST_DURATION_MS } from "./overlay-store.ts";

const currentToast = () => overlaySnapshot().toast;

describe("the red toast", () => {
  afterEach(() => {
    hideToast();
    vi.useRealTimers();
  });

  it("says 'System error' by default and goes away after 3 seconds", () => {
    vi.useFakeTimers();
    showToast();
    expect(currentToast()?.message).toBe("System error");
    vi.advanceTimersByTime(TOAST_DURATION_MS);
    expect(currentToast()).toBeNull();
  });

  it("keeps a priority toast over the failures that follow it, until it expires", () => {
    vi.useFakeTimers();
    showToast("Su sesión expiró. Ingrese nuevamente.", { priority: true });
    showToast("error de sistema vuelva a intentarlo");
    expect(currentToast()?.message).toBe("Su sesión expiró. Ingrese nuevamente.");
    vi.advanceTimersByTime(TOAST_DURATION_MS);
    showToast("error de sistema vuelva a intentarlo");
    expect(currentToast()?.message).toBe("error de sistema vuelva a intentarlo");
  });
});
