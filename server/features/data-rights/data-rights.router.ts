import {
  ZCreateRightsRequest,
  ZOwnAccessesInput,
  ZPatientAccessesInput,
  ZStaffRightsRequestsInput,
  ZUpdateRightsRequest,
} from "../../contract/data-rights.schemas.ts";
import { patientProcedure, router, staffProcedure } from "../../trpc/trpc.ts";
import { listOwnAccesses, listPatientAccesses } from "./accesses.service.ts";
import { dataExportState, requestDataExport } from "./data-export.service.ts";
import { createRightsRequest, listOwnRightsRequests, listStaffRightsRequests, updateRightsRequest } from "./requests.service.ts";

// 'Mis datos' (patients) and 'Solicitudes de pacientes' (staff), issue 28: the same services as the REST routes.
export const dataRightsRouter = router({
  accesses: patientProcedure.input(ZOwnAccessesInput).query(({ ctx, input }) => listOwnAccesses(ctx.deps, ctx.user, input, ctx.meta)),
  patientAccesses: staffProcedure("data.accesses.list")
    .input(ZPatientAccessesInput)
    .query(({ ctx, input }) => listPatientAccesses(ctx.deps, ctx.user, input, ctx.meta)),
  requests: patientProcedure.query(({ ctx }) => listOwnRightsRequests(ctx.deps, ctx.user)),
  createRequest: patientProcedure
    .input(ZCreateRightsRequest)
    .mutation(({ ctx, input }) => createRightsRequest(ctx.deps, ctx.user, input, ctx.meta)),
  staffRequests: staffProcedure("rights.request.list")
    .input(ZStaffRightsRequestsInput)
    .query(({ ctx, input }) => listStaffRightsRequests(ctx.deps, ctx.user, input, ctx.meta)),
  updateRequest: staffProcedure("rights.request.update")
    .input(ZUpdateRightsRequest)
    .mutation(({ ctx, input }) => updateRightsRequest(ctx.deps, ctx.user, input, ctx.meta)),
  exportState: patientProcedure.query(({ ctx }) => dataExportState(ctx.deps, ctx.user)),
  requestExport: patientProcedure.mutation(({ ctx }) => requestDataExport(ctx.deps, ctx.user, ctx.meta)),
});
