import { z } from "zod";
import { PATIENT_EDITABLE_FIELDS } from "../../contract/profile.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import { Role } from "../../contract/roles.ts";
import { normalizeRut } from "../../contract/rut.ts";
import { messages, profileSchema, rutSchema } from "../../contract/validation.ts";
import type { AuthenticatedUser, SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { recordAudit } from "../../lib/audit.ts";
import { emailChangedNotice, sendAccountNotice } from "../../lib/account-notices.ts";
import { AppError, unauthorizedMessage } from "../../lib/errors.ts";
import { verifyPassword } from "../../lib/passwords.ts";
import { issueAccessToken } from "../../lib/session-tokens.ts";
import { throttledGuess } from "../../lib/login-throttle.ts";
import { acceptablePassword, storeNewPassword } from "../../lib/password-change.ts";
import { toUserDto, type UserDto } from "../../contract/users.dto.ts";
import { updateUser, userDtoSelect } from "../../db/users.repository.ts";
import { dayToDate } from "../../contract/days.ts";

// The signed-in user's own account ('Mi cuenta', SPEC §2): read it, edit the personal data, change the password.
// Every function acts on the caller's own row only; nothing here takes a user id from the client.

export const wrongCurrentPasswordMessage = "La contraseña actual es incorrecta";
export const samePasswordMessage = "La nueva contraseña debe ser distinta de la actual";
export const otherUserPasswordMessage = "Solo puede cambiar su propia contraseña";

/**
 * Personal data the user may change. z.object strips unknown keys, so roleType, rut, id, hasChangedPassword, dateTyc,
 * passwordHash, tokenVersion… sent by the client never reach the database (and the update below names its fields too).
 */
export const ZProfileInput = profileSchema;

export const ZChangePasswordInput = z.object({
  oldPassword: z.string({ error: messages.required }).min(1, { error: messages.required }).max(200, { error: wrongCurrentPasswordMessage }),
  // Checked by acceptablePassword (SPEC §5 rule, confirmation, common-password list). Optional here so a missing one
  // gets its 'Campo Obligatorio' from there: a bare z.unknown() key is required in zod 4, with an English message.
  password: z.unknown().optional(),
  passwordConfirmation: z.unknown().optional(),
  // The web app may send an empty RUT; only a real one is compared with the caller's.
  rut: z.preprocess((value) => (value === "" || value === null ? undefined : value), rutSchema.optional()),
});

export interface ChangePasswordResult {
  user: UserDto;
  /** Replaces the caller's token: every token issued before the change gets 401 from now on. */
  accessToken: string;
}

/**
 * The caller's stored user: the row authentication just read (or its cached copy, which every committed change to
 * the user drops), so /auth/me reads the user once, not twice.
 */
export function getOwnAccount(user: SessionUser): UserDto {
  return toUserDto(user);
}

type ProfileRow = {
  firstName: string | null;
  secondName: string | null;
  lastName: string | null;
  secondLastName: string | null;
  email: string;
  phoneNumber: string | null;
  birthDate: string | null;
};

const profileFields = PATIENT_EDITABLE_FIELDS;

function changedFields(
  before: ProfileRow,
  after: ProfileRow,
): { before: Record<string, string | null>; after: Record<string, string | null> } {
  const diff = { before: {} as Record<string, string | null>, after: {} as Record<string, string | null> };
  for (const field of profileFields) {
    if (before[field] !== after[field]) {
      diff.before[field] = before[field];
      diff.after[field] = after[field];
    }
  }
  return diff;
}

/**
 * Saves the caller's personal data (SPEC §3 User, §5 rules). Any authenticated user may edit their own data.
 * Throws BAD_REQUEST with the rule's Spanish message on invalid input; UNAUTHORIZED if the row no longer exists.
 * An omitted secondName keeps the stored one; an empty one clears it.
 */
export async function updateOwnProfile(
  deps: AppDeps,
  user: Pick<SessionUser, "id" | "roleType">,
  input: unknown,
  meta: RequestMeta,
): Promise<UserDto> {
  const profile = parseInput(ZProfileInput, input);
  const current = await deps.prisma.user.findUnique({ where: { id: user.id }, select: userDtoSelect });
  if (!current) throw new AppError("UNAUTHORIZED", unauthorizedMessage);

  const next = {
    firstName: profile.firstName,
    secondName: profile.secondName === undefined ? current.secondName : profile.secondName || null,
    lastName: profile.lastName,
    secondLastName: profile.secondLastName,
    email: profile.email,
    phoneNumber: profile.phoneNumber,
    birthDate: dayToDate(profile.birthDate),
  };
  const updated = await updateUser(deps.prisma, current, next, userDtoSelect);

  const before = toUserDto(current);
  const after = toUserDto(updated);
  const diff = changedFields(before, after);
  if (current.email !== updated.email) {
    sendAccountNotice(deps, emailChangedNotice(current.email, updated.email, { byStaff: false }), "email-change");
  }
  await recordAudit(deps.prisma, {
    actorId: user.id,
    actorRole: user.roleType,
    action: "account.update",
    resource: "user",
    resourceId: user.id,
    patientId: user.roleType === Role.patient ? user.id : null,
    before: diff.before,
    after: diff.after,
    ip: meta.ip,
  });
  return after;
}

/**
 * Changes the caller's password with the current one, and returns a fresh access token so the session goes on.
 * Throws BAD_REQUEST for a wrong current password ('La contraseña actual es incorrecta'), a new password that breaks
 * SPEC §5, does not match its confirmation, is common or equals the current one; FORBIDDEN when `rut` names another
 * user; TOO_MANY_REQUESTS once the RUT or the address has used up its failed attempts (wrong current passwords count as
 * failed logins, so a stolen token cannot be used to guess the password).
 */
export async function changeOwnPassword(
  deps: AppDeps,
  user: Pick<AuthenticatedUser, "id" | "rut" | "roleType" | "sessionId">,
  input: unknown,
  meta: RequestMeta,
): Promise<ChangePasswordResult> {
  const { oldPassword, password: rawPassword, passwordConfirmation, rut } = parseInput(ZChangePasswordInput, input);
  const audit = (outcome: "ok" | "denied") =>
    recordAudit(deps.prisma, {
      actorId: user.id,
      actorRole: user.roleType,
      action: "account.password-change",
      resource: "user",
      resourceId: user.id,
      patientId: user.roleType === Role.patient ? user.id : null,
      outcome,
      ip: meta.ip,
    });

  if (rut !== undefined && normalizeRut(rut) !== user.rut) {
    await audit("denied");
    throw new AppError("FORBIDDEN", otherUserPasswordMessage);
  }
  const password = acceptablePassword({ password: rawPassword, passwordConfirmation });

  const stored = await deps.prisma.user.findUnique({ where: { id: user.id }, select: { passwordHash: true } });
  if (!stored) throw new AppError("UNAUTHORIZED", unauthorizedMessage);
  if (!(await throttledGuess(deps, user.rut, "password", meta, () => verifyPassword(stored.passwordHash, oldPassword)))) {
    await audit("denied");
    throw new AppError("BAD_REQUEST", wrongCurrentPasswordMessage);
  }
  // The current password was just verified, so comparing the strings is the same as comparing against the hash.
  if (password === oldPassword) throw new AppError("BAD_REQUEST", samePasswordMessage);

  const updated = await deps.prisma.$transaction((tx) =>
    storeNewPassword(tx, user.id, password, { hasChangedPassword: true, keepSession: user.sessionId }),
  );
  await audit("ok");
  return { user: toUserDto(updated), accessToken: issueAccessToken(deps, updated, user.sessionId) };
}
