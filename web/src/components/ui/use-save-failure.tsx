import { useState } from "react";
import { showToast } from "../../lib/overlay-store.ts";
import { errorCode, errorMessage } from "../../lib/trpc-client.ts";
import { Banner } from "./Banner.tsx";

/**
 * A failed save: SPEC §8's toast always, and — when the server's answer is one the user can act on (a wrong current
 * password, an expired link, a refused password) — that reason in a banner inside the form.
 */
export function useSaveFailure(toast: string, reasonCodes: readonly string[] = ["BAD_REQUEST"]) {
  const [reason, setReason] = useState<string | null>(null);
  return {
    onError(error: unknown) {
      showToast(toast);
      setReason(reasonCodes.includes(errorCode(error) ?? "") ? errorMessage(error, "") || null : null);
    },
    clear: () => setReason(null),
    banner: reason ? <Banner onClose={() => setReason(null)}>{reason}</Banner> : null,
  };
}
