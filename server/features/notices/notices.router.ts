import { patientProcedure, router } from "../../trpc/trpc.ts";
import { getNoticePreferences, updateNoticePreferences, ZNoticePreferencesInput } from "./notices.service.ts";

/** tRPC over the same service as REST /account/notices (access: patient). */
export const noticesRouter = router({
  preferences: patientProcedure.query(({ ctx }) => getNoticePreferences(ctx.deps, ctx.user)),
  update: patientProcedure.input(ZNoticePreferencesInput).mutation(({ ctx, input }) => updateNoticePreferences(ctx.deps, ctx.user, input)),
});
