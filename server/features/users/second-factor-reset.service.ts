import type { AppDeps, RequestMeta } from "../../deps.ts";
import { secondFactorMessages, ZSecondFactorResetInput } from "../../contract/second-factor.ts";
import { setSecondFactor } from "../../db/users.repository.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { deny, requireAdmin, requireStaffActor } from "../../lib/access.ts";
import { audit } from "../../lib/audit.ts";
import { secondFactorResetNotice, sendAccountNotice } from "../../lib/account-notices.ts";
import { AppError } from "../../lib/errors.ts";
import { endOtherSessions } from "../../lib/sessions.ts";

/**
 * An admin resets another person's second factor (issue 27: a lost phone without recovery codes): the secret and the
 * recovery codes are removed and every session of that person ends, so their next login sets up the factor anew.
 * Audited with the admin's reason. Nobody resets their own (403): a person who lost their phone signs in with a
 * recovery code. Executives get 403 (audited as denied).
 */
export async function resetSecondFactor(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<true> {
  const action = "user.second-factor-reset";
  const actor = await requireStaffActor(deps, user, meta, action);
  await requireAdmin(deps, actor, meta, { action }, "Solo un administrador puede restablecer la verificación en dos pasos");
  const { userId, reason } = parseInput(ZSecondFactorResetInput, input);
  if (userId === user.id) await deny(deps, user, meta, { action, resourceId: userId }, secondFactorMessages.ownReset);
  const target = await deps.prisma.user.findUnique({
    where: { id: userId },
    select: { id: true, roleType: true, email: true, totpEnabledAt: true, totpPendingSecret: true },
  });
  if (!target) throw new AppError("NOT_FOUND", "Usuario no encontrado");
  if (!target.totpEnabledAt && !target.totpPendingSecret) throw new AppError("CONFLICT", secondFactorMessages.notEnrolled);

  await deps.prisma.$transaction(async (tx) => {
    await setSecondFactor(tx, target.id, { totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null });
    await tx.recoveryCode.deleteMany({ where: { userId: target.id } });
    await endOtherSessions(tx, target.id, "second-factor-reset");
  });
  await audit(deps, user, meta, {
    action,
    target,
    before: { secondFactor: target.totpEnabledAt !== null },
    after: { secondFactor: false, sessionsEnded: true, reason },
  });
  sendAccountNotice(deps, secondFactorResetNotice(target.email), "second-factor-reset");
  return true;
}
