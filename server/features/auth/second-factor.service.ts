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
import { AppError } from "../../lib/errors.ts";
import { passwordAttemptSucceeded, reservePasswordAttempt } from "../../lib/login-throttle.ts";
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
// password's counters under their own key, so guessing codes costs what guessing passwords does.

/** The counters of code attempts: the password throttle's, under a key of their own. */
const codeThrottleKey = (rut: string) => `2fa:${rut}`;

async function secondFactorRow(deps: AppDeps, userId: number) {
  const row = await deps.prisma.user.findUnique({
    where: { id: userId },
    select: { totpSecret: true, totpPendingSecret: true, totpEnabledAt: true, totpLastStep: true },
  });
  if (!row) throw new AppError("UNAUTHORIZED", secondFactorMessages.codeInvalid);
  return row;
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

/** Enrolment, step 1: a new secret (kept aside until confirmed), as text and as a QR code for the authenticator app. */
export async function startEnrolment(deps: AppDeps, user: AuthenticatedUser): Promise<SecondFactorEnrolment> {
  const row = await secondFactorRow(deps, user.id);
  if (row.totpEnabledAt) throw new AppError("CONFLICT", secondFactorMessages.alreadyEnabled);
  const secret = newTotpSecret();
  await setSecondFactor(deps.prisma, user.id, { totpPendingSecret: secret });
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
  const { code } = parseInput(ZOtpInput, input);
  const row = await secondFactorRow(deps, user.id);
  if (row.totpEnabledAt) throw new AppError("CONFLICT", secondFactorMessages.alreadyEnabled);
  if (!row.totpPendingSecret) throw new AppError("BAD_REQUEST", secondFactorMessages.noEnrolment);
  const attempt = await reservePasswordAttempt(deps, codeThrottleKey(user.rut), meta);
  const step = await acceptedTotpStep(row.totpPendingSecret, code.replace(/\s/g, ""), null);
  if (step === null) {
    await audit(deps, user, meta, {
      action: "second-factor.enrol",
      resource: "user",
      resourceId: user.id,
      outcome: "denied",
    });
    throw new AppError("BAD_REQUEST", secondFactorMessages.codeInvalid);
  }
  await passwordAttemptSucceeded(deps, attempt);
  const { codes, hashes } = newRecoveryCodes();
  await deps.prisma.$transaction(async (tx) => {
    await setSecondFactor(tx, user.id, {
      totpSecret: row.totpPendingSecret,
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

/**
 * Whether the code is the person's: a TOTP code of now ±1 step not used before, or an unused recovery code (which is
 * then spent). Both are claimed atomically, so the same code sent twice at once works once.
 */
async function spendCode(
  deps: AppDeps,
  userId: number,
  secret: string,
  lastStep: number | null,
  code: string,
): Promise<"totp" | "recovery" | null> {
  const digits = code.replace(/\s/g, "");
  if (/^\d{6}$/.test(digits)) {
    const step = await acceptedTotpStep(secret, digits, lastStep);
    return step !== null && (await claimTotpStep(deps.prisma, userId, step)) ? "totp" : null;
  }
  const recovery = normalizeRecoveryCode(code);
  if (!recovery) return null;
  const spent = await deps.prisma.recoveryCode.updateMany({
    where: { userId, codeHash: recoveryCodeHash(recovery), usedAt: null },
    data: { usedAt: new Date() },
  });
  return spent.count === 1 ? "recovery" : null;
}

/**
 * POST /auth/verify-otp: the login's second step. The bearer is the password-only token of admin-login (or new-login);
 * a right code completes its session and the answer is admin-login's, with the token now good for the whole portal.
 */
export async function verifySecondFactor(deps: AppDeps, user: AuthenticatedUser, input: unknown, meta: RequestMeta): Promise<Session> {
  const { code } = parseInput(ZOtpInput, input);
  if (!user.secondFactorPending) throw new AppError("CONFLICT", secondFactorMessages.alreadyVerified);
  const row = await secondFactorRow(deps, user.id);
  if (!row.totpSecret) throw new AppError("BAD_REQUEST", secondFactorMessages.codeInvalid);
  const portal = isStaffRole(user.roleType) ? "staff" : "patient";
  const attempt = await reservePasswordAttempt(deps, codeThrottleKey(user.rut), meta).catch((error: unknown) => {
    deps.metrics?.loginOutcome("throttled", portal);
    throw error;
  });
  const kind = await spendCode(deps, user.id, row.totpSecret, row.totpLastStep, code);
  if (!kind) {
    await audit(deps, user, meta, {
      action: "login.second-factor",
      resource: "session",
      outcome: "denied",
    });
    throw new AppError("BAD_REQUEST", secondFactorMessages.codeInvalid);
  }
  await passwordAttemptSucceeded(deps, attempt);
  await completeSecondFactor(deps, user.id, user.sessionId);
  await audit(deps, user, meta, {
    action: "login.second-factor",
    resource: "session",
    after: { with: kind },
  });
  await noticeNewDevice(deps, user, meta);
  return { user: toUserDto(user), accessToken: issueAccessToken(deps, user, user.sessionId) };
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
