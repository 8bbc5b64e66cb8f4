import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { showErrorToast } from "./error-toast.ts";
import { hideToast, overlaySnapshot } from "./overlay-store.ts";

// The one error toast: the caches show a failed call's meta.errorToast, once per failed call, and nothing without it.

const failing = () => Promise.reject(new Error("sin respuesta"));
const currentToast = () => overlaySnapshot().toast?.message ?? null;

function client() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => showErrorToast(error, query) }),
    mutationCache: new MutationCache({ onError: (error, _variables, _context, mutation) => showErrorToast(error, mutation) }),
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
}

describe("showErrorToast", () => {
  afterEach(() => hideToast());

  it("shows a failed query's text", async () => {
    await client()
      .fetchQuery({ queryKey: ["bills"], queryFn: failing, meta: { errorToast: "error de sistema vuelva a intentarlo" } })
      .catch(() => undefined);
    expect(currentToast()).toBe("error de sistema vuelva a intentarlo");
  });

  it("shows a failed mutation's text made from the error", async () => {
    const queryClient = client();
    const mutation = queryClient
      .getMutationCache()
      .build(queryClient, { mutationFn: failing, meta: { errorToast: (error) => `Falló: ${(error as Error).message}` } });
    await mutation.execute(undefined).catch(() => undefined);
    expect(currentToast()).toBe("Falló: sin respuesta");
  });

  it("shows nothing for a call without meta.errorToast (its page handles the failure)", async () => {
    await client()
      .fetchQuery({ queryKey: ["users"], queryFn: failing })
      .catch(() => undefined);
    expect(currentToast()).toBeNull();
  });
});
