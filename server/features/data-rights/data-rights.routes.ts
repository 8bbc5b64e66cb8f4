import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppDeps } from "../../deps.ts";
import { payloadOf } from "../../contract/api.dto.ts";
import {
  ZAccessesUserId,
  ZAccessFilters,
  ZExportId,
  ZRightsRequestId,
  ZRightsRequestChange,
  ZAccessPage,
  ZCreateRightsRequest,
  ZDataExportState,
  ZRightsRequestDto,
  ZRightsRequestPage,
  ZStaffRightsRequestsInput,
} from "../../contract/data-rights.schemas.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { access } from "../../http/route-access.ts";
import { fileResponse, type RouteDocs } from "../../http/route-docs.ts";
import { ZSignedLinkQuery } from "../../lib/signed-links.ts";
import { listOwnAccesses, listPatientAccesses } from "./accesses.service.ts";
import { dataExportState, openDataExport, requestDataExport } from "./data-export.service.ts";
import { createRightsRequest, listOwnRightsRequests, listStaffRightsRequests, updateRightsRequest } from "./requests.service.ts";

const tag = "Mis datos: derechos del paciente";
const byUserId = z.object({ userId: ZAccessesUserId.describe("Id del paciente") });
const byId = z.object({ id: ZRightsRequestId.describe("Id de la solicitud") });
// The filters the services parse (days YYYY-MM-DD in Chile's time, both included; 'to' not before 'from').
const accessQuery = ZAccessFilters;

/** The API document's entry of each route (served at /api/docs). */
const docs = {
  ownAccesses: {
    tag,
    summary: "Accesos a mis datos: quién leyó o cambió los datos del paciente y cuándo (paginado, por días)",
    querystring: accessQuery,
    response: payloadOf(ZAccessPage),
  },
  patientAccesses: {
    tag,
    summary: "Accesos a los datos de un paciente, para el personal (ejecutivos: pacientes de sus clínicas)",
    params: byUserId,
    querystring: accessQuery,
    response: payloadOf(ZAccessPage),
  },
  ownRequests: {
    tag,
    summary: "Solicitudes del paciente, de la más nueva a la más antigua",
    response: payloadOf(z.array(ZRightsRequestDto)),
  },
  createRequest: {
    tag,
    summary: "Nueva solicitud: rectificación, oposición a avisos por correo o cierre de la cuenta del portal",
    body: ZCreateRightsRequest,
    response: payloadOf(ZRightsRequestDto),
    errors: [409],
  },
  staffRequests: {
    tag,
    summary: "Solicitudes de pacientes (ejecutivos: pacientes de sus clínicas), del plazo más cercano al más lejano",
    querystring: ZStaffRightsRequestsInput,
    response: payloadOf(ZRightsRequestPage),
  },
  updateRequest: {
    tag,
    summary: "Cambia el estado de una solicitud (en curso, resuelta, rechazada con motivo); el paciente recibe un correo",
    params: byId,
    body: ZRightsRequestChange,
    response: payloadOf(ZRightsRequestDto),
    errors: [404, 409],
  },
  exportState: { tag, summary: "La descarga de datos vigente del paciente (24 horas), si hay una", response: payloadOf(ZDataExportState) },
  requestExport: {
    tag,
    summary: "Prepara en segundo plano el ZIP con los datos del paciente (una vez por hora)",
    response: payloadOf(ZDataExportState),
    errors: [429],
  },
  downloadExport: {
    tag,
    summary: "Descarga el ZIP de los datos del paciente por su enlace firmado",
    params: z.object({ id: ZExportId }),
    querystring: ZSignedLinkQuery,
    response: fileResponse("application/zip", "ZIP con datos.json, laboratorio.json (FHIR R4), resumen.pdf y los PDF de las cuentas"),
    errors: [404, 409],
  },
} satisfies Record<string, RouteDocs>;

type WithParams<K extends string> = FastifyRequest<{ Params: Record<K, string> }>;

/** REST of the patient's rights over their data (issue 28); the same services as tRPC dataRights.*. */
export async function dataRightsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const user = (request: FastifyRequest) => requireUser(deps, request.headers.authorization);

  app.get("/patient/accesses", access("patient", docs.ownAccesses), async (request) => ({
    payload: await listOwnAccesses(deps, await user(request), request.query, requestMeta(request)),
  }));
  app.get("/admin/users/:userId/accesses", access("staff", docs.patientAccesses), async (request: WithParams<"userId">) => ({
    payload: await listPatientAccesses(
      deps,
      await user(request),
      { ...(request.query as object), userId: request.params.userId },
      requestMeta(request),
    ),
  }));

  app.get("/patient/rights-requests", access("patient", docs.ownRequests), async (request) => ({
    payload: await listOwnRightsRequests(deps, await user(request)),
  }));
  app.post("/patient/rights-requests", access("patient", docs.createRequest), async (request) => ({
    payload: await createRightsRequest(deps, await user(request), request.body, requestMeta(request)),
  }));
  app.get("/admin/rights-requests", access("staff", docs.staffRequests), async (request) => ({
    payload: await listStaffRightsRequests(deps, await user(request), request.query, requestMeta(request)),
  }));
  app.patch("/admin/rights-requests/:id", access("staff", docs.updateRequest), async (request: WithParams<"id">) => ({
    payload: await updateRightsRequest(
      deps,
      await user(request),
      { ...(request.body as object), id: request.params.id },
      requestMeta(request),
    ),
  }));

  app.get("/patient/data-export", access("patient", docs.exportState), async (request) => ({
    payload: await dataExportState(deps, await user(request)),
  }));
  app.post("/patient/data-export", access("patient", docs.requestExport), async (request) => ({
    payload: await requestDataExport(deps, await user(request), requestMeta(request)),
  }));
  // The signed link is the credential (it names the patient it was made for); no bearer header is needed to follow it.
  app.get("/patient/data-export/download/:id", access("signed", docs.downloadExport), async (request: WithParams<"id">, reply) => {
    const { fileName, stream } = await openDataExport(deps, request.params.id, request.query, requestMeta(request));
    return reply
      .header("Content-Type", "application/zip")
      .header("Content-Disposition", `attachment; filename="${fileName}"`)
      .header("X-Content-Type-Options", "nosniff")
      .header("Cache-Control", "no-store")
      .send(stream);
  });
}
