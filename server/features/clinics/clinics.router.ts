import { publicProcedure, router } from "../../trpc/trpc.ts";
import { clinicSettings, ZClinicSettingsInput } from "./clinics.service.ts";

export const clinicsRouter = router({
  settings: publicProcedure.input(ZClinicSettingsInput).query(({ ctx, input }) => clinicSettings(ctx.deps.config, input.clinic)),
});
