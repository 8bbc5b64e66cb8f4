import { Role } from "../../contract/roles.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { AppError, forbiddenMessage } from "../../lib/errors.ts";

/** Results belong to patients: staff have no results of their own and read none through these calls (403). */
export function requirePatient(user: SessionUser): SessionUser {
  if (user.roleType !== Role.patient) throw new AppError("FORBIDDEN", forbiddenMessage);
  return user;
}
