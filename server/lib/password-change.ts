import type { Prisma } from "../generated/prisma/client.ts";
import { messages, passwordPairSchema } from "../contract/validation.ts";
import { AppError } from "./errors.ts";
import { setUserPassword } from "../db/users.repository.ts";
import { isCommonPassword } from "./passwords.ts";
import { endOtherSessions } from "./sessions.ts";
import { parseInput } from "../http/validate.ts";

/** Checks a new password pair against SPEC §5 and the common-password list; returns the password. */
export function acceptablePassword(input: { password: unknown; passwordConfirmation: unknown }): string {
  const { password } = parseInput(passwordPairSchema, input);
  if (isCommonPassword(password)) throw new AppError("BAD_REQUEST", messages.commonPassword);
  return password;
}

/**
 * Stores a new password hash, bumps tokenVersion (every access token issued before stops working), ends every session
 * of the user but `keepSession` (the user's own, when they changed it themself) and voids any pending reset link.
 * Runs inside the caller's transaction.
 */
export async function storeNewPassword(
  tx: Prisma.TransactionClient,
  userId: number,
  password: string,
  options: { hasChangedPassword: boolean; keepSession?: string },
) {
  await tx.passwordResetToken.updateMany({ where: { userId, usedAt: null }, data: { usedAt: new Date() } });
  await endOtherSessions(tx, userId, "password", options.keepSession);
  return setUserPassword(tx, userId, password, { hasChangedPassword: options.hasChangedPassword });
}
