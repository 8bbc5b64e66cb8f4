import type { AppDeps, RequestMeta } from "../deps.ts";
import { resolveClinic } from "../contract/clinics.ts";
import { formatRut } from "../contract/rut.ts";
import { escapeHtml, type MailMessage } from "../providers/mail/mail.provider.ts";
import { recordAudit, type AuditEntry } from "./audit.ts";
import { clinicPortalUrl } from "./clinic-urls.ts";
import { randomToken, sha256 } from "./tokens.ts";

// The password-recovery e-mail, shared by the patient's own request (features/auth, SPEC §2 'Recover password') and
// staff's 'Enviar enlace para restablecer contraseña' (features/users, issue 33): one link, one mail, one hourly cap.

/**
 * When the RUT has an account and has not asked too often this hour (RESET_MAX_REQUESTS_PER_HOUR, against mail
 * flooding), voids its earlier links and e-mails a new one on the clinic's own configured address. True when it sent.
 */
export async function sendResetLink(deps: AppDeps, rut: string, rcrLink: string, meta: RequestMeta): Promise<boolean> {
  const user = await deps.prisma.user.findUnique({
    where: { rut },
    select: { id: true, email: true, firstName: true, rut: true, closedAt: true },
  });
  // A portal account closed at the patient's request (issue 28) has no address left and no way back in by mail.
  if (!user || user.closedAt) return false;
  const audit: AuditEntry = { actorId: user.id, action: "password.reset-request", resource: "user", resourceId: user.id, ip: meta.ip };
  const lastHour = await deps.prisma.passwordResetToken.count({
    where: { userId: user.id, createdAt: { gt: new Date(Date.now() - 3_600_000) } },
  });
  if (lastHour >= deps.config.RESET_MAX_REQUESTS_PER_HOUR) {
    await recordAudit(deps.prisma, { ...audit, outcome: "denied" });
    return false;
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
  return true;
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
