import { useState } from "react";
import { showToast } from "../../lib/overlay-store.ts";
import { errorCode, errorMessage } from "../../lib/trpc-client.ts";
import { Banner } from "./Banner.tsx";
import { toastAsSentence } from "./failure-words.ts";

/**
 * A failed save: SPEC §8's toast always. When the server's answer is one the user can act on (a wrong current
 * password, an expired link, a refused password), the form keeps a lasting message that starts with the toast's own
 * words and gives that reason underneath — one failure, told in the same words (issue 33).
 */
export function useSaveFailure(toast: string, reasonCodes: readonly string[] = ["BAD_REQUEST"]) {
  const [reason, setReason] = useState<string | null>(null);
  return {
    onError(error: unknown) {
      showToast(toast);
      setReason(reasonCodes.includes(errorCode(error) ?? "") ? errorMessage(error, "") || null : null);
    },
    clear: () => setReason(null),
    banner: reason ? (
      <Banner onClose={() => setReason(null)}>
        {toastAsSentence(toast)}
        <span className="banner__detail">{reason}</span>
      </Banner>
    ) : null,
  };
}
