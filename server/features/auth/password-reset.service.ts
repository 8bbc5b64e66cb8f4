import { z } from "zod";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import { normalizeRut } from "../../contract/rut.ts";
import { rutSchema } from "../../contract/validation.ts";
import { recordAudit } from "../../lib/audit.ts";
import { AppError } from "../../lib/errors.ts";
import { sha256 } from "../../lib/tokens.ts";
import { sendResetLink } from "../../lib/password-reset-link.ts";
import { parseInput } from "../../http/validate.ts";
import { clearRutFailures } from "../../lib/login-throttle.ts";
import { acceptablePassword, storeNewPassword } from "../../lib/password-change.ts";

export const ZResetRequestInput = z.object({ rut: rutSchema, rcrLink: z.string().trim().max(500).optional() });
export const ZNewPasswordInput = z.object({
  rut: rutSchema,
  password: z.unknown().optional(),
  passwordConfirmation: z.unknown().optional(),
});

export const resetLinkInvalidMessage = "El enlace para restablecer la contraseña no es válido o ha expirado. Solicite uno nuevo.";

/**
 * Starts a password reset (SPEC §4: step 1 → 2 whatever happens). Only the RUT's format is checked before
 * answering; the rest — looking the account up, the link, the mail — runs afterwards, so the answer and its
 * timing are the same whether or not the account exists.
 */
export async function requestPasswordReset(deps: AppDeps, input: unknown, meta: RequestMeta): Promise<void> {
  const { rut, rcrLink } = parseInput(ZResetRequestInput, input);
  deps.background.run("password reset request failed", () => sendResetLink(deps, normalizeRut(rut), rcrLink ?? "", meta));
}

/** Sets a new password with a reset token: the token must be unused, unexpired and belong to that RUT. */
export async function resetPassword(deps: AppDeps, resetToken: string | null, input: unknown, meta: RequestMeta): Promise<void> {
  const { rut, password: rawPassword, passwordConfirmation } = parseInput(ZNewPasswordInput, input);
  const password = acceptablePassword({ password: rawPassword, passwordConfirmation });
  if (!resetToken) throw new AppError("BAD_REQUEST", resetLinkInvalidMessage);

  const record = await deps.prisma.passwordResetToken.findUnique({
    where: { tokenHash: sha256(resetToken) },
    include: { user: { select: { rut: true } } },
  });
  if (!record || record.usedAt || record.expiresAt <= new Date() || record.user.rut !== normalizeRut(rut)) {
    throw new AppError("BAD_REQUEST", resetLinkInvalidMessage);
  }
  await deps.prisma.$transaction(async (tx) => {
    // Claim the token first: of two concurrent uses only one updates a row.
    const claimed = await tx.passwordResetToken.updateMany({ where: { id: record.id, usedAt: null }, data: { usedAt: new Date() } });
    if (claimed.count !== 1) throw new AppError("BAD_REQUEST", resetLinkInvalidMessage);
    await storeNewPassword(tx, record.userId, password, { hasChangedPassword: true });
  });
  await clearRutFailures(deps, normalizeRut(rut));
  await recordAudit(deps.prisma, {
    actorId: record.userId,
    action: "password.reset",
    resource: "user",
    resourceId: record.userId,
    ip: meta.ip,
  });
}
