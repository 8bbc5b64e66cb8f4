import type { AppConfig } from "../../config.ts";
import type { AppDeps } from "../../deps.ts";
import { seal, sealingKey, unseal } from "../../lib/sealing.ts";

// The second factor's TOTP secrets are sealed at rest (issue 42): a database dump alone gives no codes. The key comes
// from SECOND_FACTOR_KEY (or JWT_SECRET); SECOND_FACTOR_KEY_PREVIOUS still opens what the old key sealed, and every start
// re-seals what is not sealed with the current key (rows from before sealing, or from before a rotation).

const SEALED = "sealed:v1:";
const PURPOSE = "totp-secret-v1";

type KeyConfig = Pick<AppConfig, "JWT_SECRET" | "SECOND_FACTOR_KEY" | "SECOND_FACTOR_KEY_PREVIOUS">;

function currentKey(config: KeyConfig): Buffer {
  return sealingKey(config.SECOND_FACTOR_KEY ?? config.JWT_SECRET, PURPOSE);
}

function previousKey(config: KeyConfig): Buffer | null {
  return config.SECOND_FACTOR_KEY_PREVIOUS ? sealingKey(config.SECOND_FACTOR_KEY_PREVIOUS, PURPOSE) : null;
}

export function sealTotpSecret(config: KeyConfig, secret: string): string {
  return SEALED + seal(currentKey(config), secret);
}

function tryUnseal(key: Buffer | null, sealed: string): string | null {
  if (!key) return null;
  try {
    return unseal(key, sealed);
  } catch {
    return null;
  }
}

/** The secret a stored value holds: sealed with the current or the previous key, or in clear from before sealing. */
export function openTotpSecret(config: KeyConfig, stored: string): string {
  if (!stored.startsWith(SEALED)) return stored;
  const sealed = stored.slice(SEALED.length);
  const secret = tryUnseal(currentKey(config), sealed) ?? tryUnseal(previousKey(config), sealed);
  if (secret === null) throw new Error("Un secreto del segundo factor no abre con SECOND_FACTOR_KEY ni con SECOND_FACTOR_KEY_PREVIOUS.");
  return secret;
}

/** The stored value again, sealed with the current key; null when it already is. */
function resealed(config: KeyConfig, stored: string | null): string | null {
  if (stored === null) return null;
  if (stored.startsWith(SEALED) && tryUnseal(currentKey(config), stored.slice(SEALED.length)) !== null) return null;
  return sealTotpSecret(config, openTotpSecret(config, stored));
}

/** Seals with the current key every secret that is not (at start, before /readyz); how many accounts changed. */
export async function sealStoredTotpSecrets(deps: Pick<AppDeps, "prisma" | "config">): Promise<number> {
  const rows = await deps.prisma.user.findMany({
    where: { OR: [{ totpSecret: { not: null } }, { totpPendingSecret: { not: null } }] },
    select: { id: true, totpSecret: true, totpPendingSecret: true },
  });
  let changed = 0;
  for (const row of rows) {
    const totpSecret = resealed(deps.config, row.totpSecret);
    const totpPendingSecret = resealed(deps.config, row.totpPendingSecret);
    if (totpSecret === null && totpPendingSecret === null) continue;
    // Only where the value is still the one read, so a concurrent enrolment is never overwritten with an older secret.
    const updated = await deps.prisma.user.updateMany({
      where: { id: row.id, totpSecret: row.totpSecret, totpPendingSecret: row.totpPendingSecret },
      data: { ...(totpSecret ? { totpSecret } : {}), ...(totpPendingSecret ? { totpPendingSecret } : {}) },
    });
    changed += updated.count;
  }
  return changed;
}
