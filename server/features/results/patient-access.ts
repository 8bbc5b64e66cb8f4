import { Role } from "../../contract/roles.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { AppError, forbiddenMessage } from "../../lib/errors.ts";
import { authedProcedure } from "../../trpc/trpc.ts";

/** Results belong to patients: staff have no results of their own and read none through these calls (403). */
export function requirePatient(user: SessionUser): SessionUser {
  if (user.roleType !== Role.patient) throw new AppError("FORBIDDEN", forbiddenMessage);
  return user;
}

/** tRPC procedures over a patient's own results (access: patient). */
export const patientProcedure = authedProcedure.use(async ({ ctx, next }) => next({ ctx: { ...ctx, user: requirePatient(ctx.user) } }));
