import { z } from "zod";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import { resolveClinic } from "../../contract/clinics.ts";
import { Role, isStaffRole } from "../../contract/roles.ts";
import { formatRut, normalizeRut } from "../../contract/rut.ts";
import { loginSchema, rutSchema } from "../../contract/validation.ts";
import { recordAudit } from "../../lib/audit.ts";
import { AppError, loginFailedMessage } from "../../lib/errors.ts";
import { escapeHtml } from "../../lib/mailer.ts";
import { decoyPasswordHash, verifyPassword } from "../../lib/passwords.ts";
import { randomToken, sha256, signAccessToken } from "../../lib/tokens.ts";
import { parseInput } from "../../http/validate.ts";
import { authenticate } from "../../http/authenticate.ts";
import { clinicPortalUrl } from "../clinics/clinic-urls.ts";
import { toUserDto, userDtoSelect, type UserDto } from "../users/user.dto.ts";
import { clearRutFailures, passwordAttemptSucceeded, reservePasswordAttempt } from "./login-throttle.ts";
import { acceptablePassword, storeNewPassword } from "./password.service.ts";

export type LoginPortal = "patient" | "staff";

export interface LoginResult {
  user: UserDto;
  accessToken: string;
}

export const ZLoginInput = loginSchema;
export const ZResetRequestInput = z.object({ rut: rutSchema, rcrLink: z.string().trim().max(500).optional() });
export const ZNewPasswordInput = z.object({ rut: rutSchema, password: z.unknown().optional(), passwordConfirmation: z.unknown().optional() });

export const resetLinkInvalidMessage = "El enlace para restablecer la contraseña no es válido o ha expirado. Solicite uno nuevo.";

export async function issueAccessToken(deps: AppDeps, user: { id: number; tokenVersion: number }): Promise<string> {
  return signAccessToken(deps.config.JWT_SECRET, { userId: user.id, tokenVersion: user.tokenVersion }, deps.config.ACCESS_TOKEN_TTL_MINUTES);
}

/**
 * Logs a user in through the patient portal (role 2 only) or the staff portal (roles 0 and 1).
 * Every failure — unknown RUT, wrong password, wrong portal — answers the same 401, in similar time.
 * Throws TOO_MANY_REQUESTS once the RUT or the address has used up its failures.
 */
export async function login(deps: AppDeps, input: unknown, portal: LoginPortal, meta: RequestMeta): Promise<LoginResult> {
  const { rut, password } = parseInput(ZLoginInput, input);
  const normalizedRut = normalizeRut(rut);
  await reservePasswordAttempt(deps, normalizedRut, meta.ip);

  const user = await deps.prisma.user.findUnique({ where: { rut: normalizedRut }, select: { ...userDtoSelect, passwordHash: true, tokenVersion: true } });
  const passwordMatches = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
  const portalMatches = user ? (portal === "staff" ? isStaffRole(user.roleType) : user.roleType === Role.patient) : false;

  if (!user || !passwordMatches || !portalMatches) {
    await recordAudit(deps.prisma, { actorId: user?.id, action: `login.${portal}`, resource: "session", outcome: "denied", ip: meta.ip });
    throw new AppError("UNAUTHORIZED", loginFailedMessage);
  }
  await passwordAttemptSucceeded(deps, normalizedRut, meta.ip);
  await recordAudit(deps.prisma, { actorId: user.id, actorRole: user.roleType, action: `login.${portal}`, resource: "session", ip: meta.ip });
  return { user: toUserDto(user), accessToken: await issueAccessToken(deps, user) };
}

/** True when the bearer token is valid and issued after the user's last password change. */
export async function validateToken(deps: AppDeps, authorization: string | undefined): Promise<boolean> {
  return (await authenticate(deps, authorization)) !== null;
}

/**
 * Starts a password reset: when the RUT has an account, voids its earlier links and e-mails a new one to the
 * clinic's own address. Answers the same whether or not the account exists (the mail goes out in the background).
 */
export async function requestPasswordReset(deps: AppDeps, input: unknown, meta: RequestMeta, log: (error: unknown) => void): Promise<void> {
  const { rut, rcrLink } = parseInput(ZResetRequestInput, input);
  const user = await deps.prisma.user.findUnique({ where: { rut: normalizeRut(rut) }, select: { id: true, email: true, firstName: true, rut: true } });
  if (!user) return;

  const token = randomToken();
  const now = new Date();
  await deps.prisma.$transaction([
    deps.prisma.passwordResetToken.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: now } }),
    deps.prisma.passwordResetToken.create({
      data: { userId: user.id, tokenHash: sha256(token), expiresAt: new Date(now.getTime() + deps.config.RESET_TOKEN_TTL_MINUTES * 60_000) },
    }),
  ]);
  await recordAudit(deps.prisma, { actorId: user.id, action: "password.reset-request", resource: "user", resourceId: user.id, ip: meta.ip });

  const clinic = resolveClinic(rcrLink ?? "");
  const link = `${clinicPortalUrl(deps.config, clinic)}/recover-password?token=${encodeURIComponent(token)}&rut=${encodeURIComponent(formatRut(user.rut))}`;
  const greeting = user.firstName ? `Hola ${user.firstName}:` : "Hola:";
  const minutes = deps.config.RESET_TOKEN_TTL_MINUTES;
  deps.mailer
    .send({
      to: user.email,
      subject: `${clinic.title} - Recuperación de contraseña`,
      text: `${greeting}\n\nRecibimos una solicitud para restablecer la contraseña de su cuenta en el Portal Pacientes de ${clinic.title}.\nPara crear una nueva contraseña ingrese a:\n${link}\n\nEl enlace es válido por ${minutes} minutos y se puede usar una sola vez. Si usted no hizo esta solicitud, ignore este correo.`,
      html: `<p>${escapeHtml(greeting)}</p><p>Recibimos una solicitud para restablecer la contraseña de su cuenta en el Portal Pacientes de ${escapeHtml(clinic.title)}.</p><p><a href="${escapeHtml(link)}">Crear una nueva contraseña</a></p><p>El enlace es válido por ${minutes} minutos y se puede usar una sola vez. Si usted no hizo esta solicitud, ignore este correo.</p>`,
    })
    .catch(log);
}

/** Sets a new password with a reset token: the token must be unused, unexpired and belong to that RUT. */
export async function resetPassword(deps: AppDeps, resetToken: string | null, input: unknown, meta: RequestMeta): Promise<void> {
  const { rut, password: rawPassword, passwordConfirmation } = parseInput(ZNewPasswordInput, input);
  const password = acceptablePassword({ password: rawPassword, passwordConfirmation });
  if (!resetToken) throw new AppError("BAD_REQUEST", resetLinkInvalidMessage);

  const record = await deps.prisma.passwordResetToken.findUnique({ where: { tokenHash: sha256(resetToken) }, include: { user: { select: { rut: true } } } });
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
  await recordAudit(deps.prisma, { actorId: record.userId, action: "password.reset", resource: "user", resourceId: record.userId, ip: meta.ip });
}
