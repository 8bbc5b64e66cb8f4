import { z } from "zod";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import { resolveClinic } from "../../contract/clinics.ts";
import { formatRut, normalizeRut } from "../../contract/rut.ts";
import { rutSchema } from "../../contract/validation.ts";
import { recordAudit, type AuditEntry } from "../../lib/audit.ts";
import { AppError } from "../../lib/errors.ts";
import { escapeHtml, type MailMessage } from "../../providers/mail/mail.provider.ts";
import { randomToken, sha256 } from "../../lib/tokens.ts";
import { parseInput } from "../../http/validate.ts";
import { clinicPortalUrl } from "../../lib/clinic-urls.ts";
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

/**
 * When the RUT has an account and has not asked too often this hour (RESET_MAX_REQUESTS_PER_HOUR, against mail
 * flooding), voids its earlier links and e-mails a new one on the clinic's own configured address.
 */
export async function sendResetLink(deps: AppDeps, rut: string, rcrLink: string, meta: RequestMeta): Promise<void> {
  const user = await deps.prisma.user.findUnique({ where: { rut }, select: { id: true, email: true, firstName: true, rut: true } });
  if (!user) return;
  const audit: AuditEntry = { actorId: user.id, action: "password.reset-request", resource: "user", resourceId: user.id, ip: meta.ip };
  const lastHour = await deps.prisma.passwordResetToken.count({
    where: { userId: user.id, createdAt: { gt: new Date(Date.now() - 3_600_000) } },
  });
  if (lastHour >= deps.config.RESET_MAX_REQUESTS_PER_HOUR) {
    await recordAudit(deps.prisma, { ...audit, outcome: "denied" });
    return;
  }

  const token = randomToken();
  const now = new Date();
  await deps.prisma.$transaction([
    deps.prisma.passwordResetToken.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: now } }),
    deps.prisma.passwordResetToken.create({
      data: {
        userId: user.id,
        tokenHash: sha256(token),
        expiresAt: new Date(now.getTime() + deps.config.RESET_TOKEN_TTL_MINUTES * 60_000),
      },
    }),
  ]);
  await recordAudit(deps.prisma, audit);

  const clinic = resolveClinic(rcrLink);
  const link = `${clinicPortalUrl(deps.config, clinic)}/recover-password?token=${encodeURIComponent(token)}&rut=${encodeURIComponent(formatRut(user.rut))}`;
  await deps.providers.mail.send(resetMail(user, clinic.title, link, deps.config.RESET_TOKEN_TTL_MINUTES));
}

function resetMail(user: { email: string; firstName: string | null }, clinicTitle: string, link: string, minutes: number): MailMessage {
  const greeting = user.firstName ? `Hola ${user.firstName}:` : "Hola:";
  const closing = `El enlace es válido por ${minutes} minutos y se puede usar una sola vez. Si usted no hizo esta solicitud, ignore este correo.`;
  return {
    to: user.email,
    subject: `${clinicTitle} - Recuperación de contraseña`,
    text: `${greeting}\n\nRecibimos una solicitud para restablecer la contraseña de su cuenta en el Portal Pacientes de ${clinicTitle}.\nPara crear una nueva contraseña ingrese a:\n${link}\n\n${closing}`,
    html: `<p>${escapeHtml(greeting)}</p><p>Recibimos una solicitud para restablecer la contraseña de su cuenta en el Portal Pacientes de ${escapeHtml(clinicTitle)}.</p><p><a href="${escapeHtml(link)}">Crear una nueva contraseña</a></p><p>${escapeHtml(closing)}</p>`,
  };
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
