import { z } from "zod";
import { ZCreateCaregiverLink, ZLinkId, ZRenewCaregiverLink } from "../../contract/caregivers.ts";
import { actingPatientProcedure, patientProcedure, router, staffProcedure } from "../../trpc/trpc.ts";
import { createCaregiverLink, listDependentLinks, renewCaregiverLink, revokeCaregiverLink } from "./caregivers.service.ts";
import { myCaregiverLinks, revokeMyCaregiverLink, schedulingPatient } from "./my-caregivers.service.ts";

const ZDependent = z.object({ dependentId: ZLinkId });
const ZLink = z.object({ linkId: ZLinkId });

/** tRPC `caregivers.*`: the same services as the REST routes of caregivers.routes.ts. */
export const caregiversRouter = router({
  list: staffProcedure("caregiver.list")
    .input(ZDependent)
    .query(({ ctx, input }) => listDependentLinks(ctx.deps, ctx.user, input.dependentId, ctx.meta)),
  create: staffProcedure("caregiver.create")
    .input(ZDependent.extend({ link: ZCreateCaregiverLink }))
    .mutation(({ ctx, input }) => createCaregiverLink(ctx.deps, ctx.user, input.dependentId, input.link, ctx.meta)),
  renew: staffProcedure("caregiver.renew")
    .input(ZLink.extend(ZRenewCaregiverLink.shape))
    .mutation(({ ctx, input: { linkId, ...renewal } }) => renewCaregiverLink(ctx.deps, ctx.user, linkId, renewal, ctx.meta)),
  revoke: staffProcedure("caregiver.revoke")
    .input(ZLink)
    .mutation(({ ctx, input }) => revokeCaregiverLink(ctx.deps, ctx.user, input.linkId, ctx.meta)),
  mine: patientProcedure.query(({ ctx }) => myCaregiverLinks(ctx.deps, ctx.user)),
  revokeMine: patientProcedure.input(ZLink).mutation(({ ctx, input }) => revokeMyCaregiverLink(ctx.deps, ctx.user, input.linkId, ctx.meta)),
  schedulingPatient: actingPatientProcedure("agendamiento", "scheduling.open").query(({ ctx }) =>
    schedulingPatient(ctx.deps, ctx.user, ctx.meta),
  ),
});
