import { z } from "zod";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { requireStaffActor } from "../../lib/access.ts";
import { audit } from "../../lib/audit.ts";
import { AppError } from "../../lib/errors.ts";
import { sendResetLink } from "../../lib/password-reset-link.ts";
import { findVisibleUser, requireEditable } from "./users-scope.ts";
import { ZUserId } from "./users.schemas.ts";

// Issue 33: 'Enviar enlace para restablecer contraseña' on 'Modificación de usuario', so staff need not invent a
// password: the same recovery e-mail a patient asks for (lib/password-reset-link.ts), under the staff rules of
// PERMISSIONS.md (executives: patients of their clinics; admins: anyone), audited.

export const ZSendResetLinkInput = z.object({ id: ZUserId, rcrLink: z.string().trim().max(500).optional() });

export const resetLinkMessages = {
  tooMany: "Ya se enviaron varios enlaces a esta cuenta en la última hora. Espere antes de enviar otro.",
} as const;

/**
 * Sends the user the recovery e-mail, on the address stored for them (answered so the screen can say where).
 * NOT_FOUND for a user the actor may not see, FORBIDDEN for staff an executive may not change, TOO_MANY_REQUESTS
 * past the hourly cap of recovery mails (RESET_MAX_REQUESTS_PER_HOUR).
 */
export async function sendUserResetLink(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<{ email: string }> {
  const { id, rcrLink } = parseInput(ZSendResetLinkInput, input);
  const actor = await requireStaffActor(deps, user, meta, "user.password-reset-link");
  const target = await findVisibleUser(deps, actor, meta, "user.password-reset-link", { id });
  await requireEditable(deps, actor, meta, "user.password-reset-link", target);
  const sent = await sendResetLink(deps, target.rut, rcrLink ?? "", meta);
  await audit(deps, user, meta, { action: "user.password-reset-link", target, outcome: sent ? "ok" : "denied" });
  if (!sent) throw new AppError("TOO_MANY_REQUESTS", resetLinkMessages.tooMany);
  return { email: target.email };
}
