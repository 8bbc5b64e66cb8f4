import { openTotpSecret, sealTotpSecret } from "./totp-secrets.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import { isStaffRole } from "../../contract/roles.ts";
import { formatRut } from "../../contract/rut.ts";
import { secondFactorMessages, ZOtpInput, type SecondFactorEnrolment, type SecondFactorStatus } from "../../contract/second-factor.ts";
import { toUserDto } from "../../contract/users.dto.ts";
import type { Session } from "../../contract/api.dto.ts";
import { claimTotpStep, setSecondFactor } from "../../db/users.repository.ts";
import type { AuthenticatedUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { newDeviceNotice, sendAccountNotice } from "../../lib/account-notices.ts";
import { audit } from "../../lib/audit.ts";
import { formatChileTime } from "../../lib/chile-time.ts";
import { AppError, passwordChangeRequiredMessage } from "../../lib/errors.ts";
import { deviceCookieFor, throttledGuess, type DeviceCookie } from "../../lib/login-throttle.ts";
import {
  acceptedTotpStep,
  newRecoveryCodes,
  newTotpSecret,
  normalizeRecoveryCode,
  qrSvg,
  recoveryCodeHash,
  totpUri,
} from "../../lib/second-factor.ts";
import { issueAccessToken } from "../../lib/session-tokens.ts";
import { completeSecondFactor, knownUserAgent } from "../../lib/sessions.ts";

// The second factor (issue 27): enrolment (secret as QR and text, confirmed by a first code, then ten recovery codes
// shown once), the login's second step (verify-otp), and the state 'Mi cuenta' shows. Codes are throttled with the
// password's rules under keys of their own (throttledGuess "code"), so guessing codes costs what guessing passwords does.

async function secondFactorRow(deps: AppDeps, userId: number) {
  const row = await deps.prisma.user.findUnique({
    where: { id: userId },
    select: { totpSecret: true, totpPendingSecret: true, totpEnabledAt: true, totpLastStep: true },
  });
  if (!row) throw new AppError("UNAUTHORIZED", secondFactorMessages.codeInvalid);
  const open = (stored: string | null) => (stored === null ? null : openTotpSecret(deps.config, stored));
  return { ...row, totpSecret: open(row.totpSecret), totpPendingSecret: open(row.totpPendingSecret) };
}

export async function secondFactorStatus(deps: AppDeps, user: AuthenticatedUser): Promise<SecondFactorStatus> {
  const row = await secondFactorRow(deps, user.id);
  const recoveryCodesLeft = row.totpEnabledAt ? await deps.prisma.recoveryCode.count({ where: { userId: user.id, usedAt: null } }) : 0;
  return {
    enabled: row.totpEnabledAt !== null,
    required: isStaffRole(user.roleType),
    enabledAt: row.totpEnabledAt?.toISOString() ?? null,
    recoveryCodesLeft,
  };
}

/**
 * Enrolment waits for the temporary password to be replaced (issue 42): a factor tied to a password that was mailed
 * would let whoever read that mail set up the second factor too, and keep it after the owner changes the password.
 */
function requireOwnPassword(user: AuthenticatedUser): void {
  if (!user.hasChangedPassword) throw new AppError("FORBIDDEN", passwordChangeRequiredMessage);
}

/** Enrolment, step 1: a new secret (kept aside until confirmed), as text and as a QR code for the authenticator app. */
export async function startEnrolment(deps: AppDeps, user: AuthenticatedUser): Promise<SecondFactorEnrolment> {
  requireOwnPassword(user);
  const row = await secondFactorRow(deps, user.id);
  if (row.totpEnabledAt) throw new AppError("CONFLICT", secondFactorMessages.alreadyEnabled);
  const secret = newTotpSecret();
  await setSecondFactor(deps.prisma, user.id, { totpPendingSecret: sealTotpSecret(deps.config, secret) });
  const otpauthUri = totpUri(secret, formatRut(user.rut));
  return { secret, otpauthUri, qrSvg: await qrSvg(otpauthUri) };
}

/** Enrolment, step 2: the first code proves the app has the secret; the factor becomes active. Returns the recovery codes. */
export async function confirmEnrolment(
  deps: AppDeps,
  user: AuthenticatedUser,
  input: unknown,
  meta: RequestMeta,
): Promise<{ recoveryCodes: string[] }> {
  requireOwnPassword(user);
  const { code } = parseInput(ZOtpInput, input);
  const row = await secondFactorRow(deps, user.id);
  if (row.totpEnabledAt) throw new AppError("CONFLICT", secondFactorMessages.alreadyEnabled);
  if (!row.totpPendingSecret) throw new AppError("BAD_REQUEST", secondFactorMessages.noEnrolment);
  const pendingSecret = row.totpPendingSecret;
  const found: { step: number | null } = { step: null };
  await throttledGuess(deps, user.rut, "code", meta, async () => {
    found.step = await acceptedTotpStep(pendingSecret, code.replace(/\s/g, ""), null);
    return found.step !== null;
  });
  const step = found.step;
  if (step === null) {
    await audit(deps, user, meta, {
      action: "second-factor.enrol",
      resource: "user",
      resourceId: user.id,
      outcome: "denied",
    });
    throw new AppError("BAD_REQUEST", secondFactorMessages.codeInvalid);
  }
  const { codes, hashes } = newRecoveryCodes();
  await deps.prisma.$transaction(async (tx) => {
    await setSecondFactor(tx, user.id, {
      totpSecret: sealTotpSecret(deps.config, pendingSecret),
      totpPendingSecret: null,
      totpEnabledAt: new Date(),
      totpLastStep: step,
    });
    await tx.recoveryCode.deleteMany({ where: { userId: user.id } });
    await tx.recoveryCode.createMany({ data: hashes.map((codeHash) => ({ userId: user.id, codeHash })) });
  });
  await audit(deps, user, meta, {
    action: "second-factor.enrol",
    resource: "user",
    resourceId: user.id,
  });
  return { recoveryCodes: codes };
}

/** A code the person may use: a TOTP code of now ±1 step not used before, or an unused recovery code. */
type UsableCode = { kind: "totp"; step: number } | { kind: "recovery"; hash: string };

/** Whether the code is the person's, changing nothing (the throttle's check: a refused guess must spend nothing). */
async function usableCode(
  deps: AppDeps,
  userId: number,
  secret: string,
  lastStep: number | null,
  code: string,
): Promise<UsableCode | null> {
  const digits = code.replace(/\s/g, "");
  if (/^\d{6}$/.test(digits)) {
    const step = await acceptedTotpStep(secret, digits, lastStep);
    return step === null ? null : { kind: "totp", step };
  }
  const recovery = normalizeRecoveryCode(code);
  if (!recovery) return null;
  const hash = recoveryCodeHash(recovery);
  const unused = await deps.prisma.recoveryCode.count({ where: { userId, codeHash: hash, usedAt: null } });
  return unused > 0 ? { kind: "recovery", hash } : null;
}

/** Spends a usable code, atomically: of the same code sent twice at once, one spends it and the other gets false. */
async function spendCode(deps: AppDeps, userId: number, code: UsableCode): Promise<boolean> {
  if (code.kind === "totp") return claimTotpStep(deps.prisma, userId, code.step);
  const spent = await deps.prisma.recoveryCode.updateMany({
    where: { userId, codeHash: code.hash, usedAt: null },
    data: { usedAt: new Date() },
  });
  return spent.count === 1;
}

/**
 * POST /auth/verify-otp: the login's second step. The bearer is the password-only token of admin-login (or new-login);
 * a right code completes its session and the answer is admin-login's, with the token now good for the whole portal,
 * and the browser's device cookie: the login is complete.
 */
export async function verifySecondFactor(
  deps: AppDeps,
  user: AuthenticatedUser,
  input: unknown,
  meta: RequestMeta,
): Promise<{ session: Session; deviceCookie: DeviceCookie }> {
  const { code } = parseInput(ZOtpInput, input);
  if (!user.secondFactorPending) throw new AppError("CONFLICT", secondFactorMessages.alreadyVerified);
  const row = await secondFactorRow(deps, user.id);
  const secret = row.totpSecret;
  if (!secret) throw new AppError("BAD_REQUEST", secondFactorMessages.codeInvalid);
  const portal = isStaffRole(user.roleType) ? "staff" : "patient";
  const found: { code: UsableCode | null } = { code: null };
  await throttledGuess(deps, user.rut, "code", meta, async () => {
    found.code = await usableCode(deps, user.id, secret, row.totpLastStep, code);
    return found.code !== null;
  }).catch((error: unknown) => {
    deps.metrics?.loginOutcome("throttled", portal);
    throw error;
  });
  const spent = found.code;
  if (!spent || !(await spendCode(deps, user.id, spent))) {
    await audit(deps, user, meta, {
      action: "login.second-factor",
      resource: "session",
      outcome: "denied",
    });
    throw new AppError("BAD_REQUEST", secondFactorMessages.codeInvalid);
  }
  await completeSecondFactor(deps, user.id, user.sessionId);
  await audit(deps, user, meta, {
    action: "login.second-factor",
    resource: "session",
    after: { with: spent.kind },
  });
  await noticeNewDevice(deps, user, meta);
  return {
    session: { user: toUserDto(user), accessToken: issueAccessToken(deps, user, user.sessionId) },
    deviceCookie: deviceCookieFor(deps, user.rut),
  };
}

/** 'Nuevo ingreso a su cuenta': a staff account signed in from a browser (user agent) it had not used before. */
export async function noticeNewDevice(
  deps: AppDeps,
  user: Pick<AuthenticatedUser, "id" | "roleType" | "email" | "sessionId">,
  meta: RequestMeta,
): Promise<void> {
  if (!isStaffRole(user.roleType) || !user.email) return;
  const userAgent = meta.userAgent ?? "";
  if (await knownUserAgent(deps, user.id, userAgent, user.sessionId)) return;
  const at = formatChileTime(new Date().toISOString());
  sendAccountNotice(deps, newDeviceNotice(user.email, { userAgent, ip: meta.ip, at }), "new device");
}
