import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { access } from "../../http/route-access.ts";
import type { RouteDocs } from "../../http/route-docs.ts";
import { payloadOf } from "../../contract/api.dto.ts";
import {
  ACTING_FOR_HEADER,
  ZCaregiverLinkDto,
  ZCreateCaregiverLink,
  ZLinkId,
  ZMyCaregiverLinks,
  ZRenewCaregiverLink,
} from "../../contract/caregivers.ts";
import { createCaregiverLink, listDependentLinks, renewCaregiverLink, revokeCaregiverLink } from "./caregivers.service.ts";
import { myCaregiverLinks, revokeMyCaregiverLink, schedulingPatient } from "./my-caregivers.service.ts";

const tag = "Cuidadores";
const byDependent = z.object({ dependentId: ZLinkId });
const byLink = z.object({ linkId: ZLinkId });
/** The API document's entry of each route (served at /api/docs), with the schemas the services validate with. */
const docs = {
  list: {
    tag,
    summary: "Vínculos de cuidador de un paciente (vigentes, vencidos y revocados)",
    params: byDependent,
    response: payloadOf(z.array(ZCaregiverLinkDto)),
  },
  create: {
    tag,
    summary: "Crea un vínculo: un paciente (cuidador) podrá actuar por este paciente en las partes elegidas",
    params: byDependent,
    body: ZCreateCaregiverLink,
    response: payloadOf(ZCaregiverLinkDto),
    errors: [409],
  },
  renew: {
    tag,
    summary: "Renueva un vínculo con una nueva fecha de término",
    params: byLink,
    body: ZRenewCaregiverLink,
    response: payloadOf(ZCaregiverLinkDto),
    errors: [409],
  },
  revoke: {
    tag,
    summary: "Revoca un vínculo: deja de funcionar de inmediato",
    params: byLink,
    response: payloadOf(ZCaregiverLinkDto),
    errors: [409],
  },
  mine: {
    tag,
    summary: "Personas a mi cuidado (para 'Ver como:') y mis cuidadores",
    description: `Para actuar por una persona a su cuidado, envíe su id en el encabezado ${ACTING_FOR_HEADER} de cada llamada.`,
    response: payloadOf(ZMyCaregiverLinks),
  },
  revokeMine: {
    tag,
    summary: "Revoca el vínculo de uno de mis cuidadores (no el de mi tutor legal mientras sea menor de edad)",
    params: byLink,
    response: payloadOf(ZCaregiverLinkDto),
    errors: [409],
  },
  scheduling: {
    tag,
    summary: "Paciente para quien se reserva hora (uno mismo, o la persona indicada en X-Actuar-Por)",
    response: payloadOf(z.object({ id: z.number(), rut: z.string(), name: z.string() })),
  },
} satisfies Record<string, RouteDocs>;

type DependentRequest = FastifyRequest<{ Params: { dependentId: string } }>;
type LinkRequest = FastifyRequest<{ Params: { linkId: string } }>;

/** REST of caregiver links (issue 30): staff on the dependent's edit page; patients for 'Ver como:' and 'Mi cuenta'. */
export async function caregiversRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const call = async (request: FastifyRequest) => ({
    user: await requireUser(deps, request.headers.authorization),
    meta: requestMeta(request),
  });

  app.get("/admin/users/:dependentId/caregivers", access("staff", docs.list), async (request: DependentRequest) => {
    const { user, meta } = await call(request);
    return { payload: await listDependentLinks(deps, user, request.params.dependentId, meta) };
  });
  app.post("/admin/users/:dependentId/caregivers", access("staff", docs.create), async (request: DependentRequest) => {
    const { user, meta } = await call(request);
    return { payload: await createCaregiverLink(deps, user, request.params.dependentId, request.body, meta) };
  });
  app.put("/admin/caregivers/:linkId", access("staff", docs.renew), async (request: LinkRequest) => {
    const { user, meta } = await call(request);
    return { payload: await renewCaregiverLink(deps, user, request.params.linkId, request.body, meta) };
  });
  app.delete("/admin/caregivers/:linkId", access("staff", docs.revoke), async (request: LinkRequest) => {
    const { user, meta } = await call(request);
    return { payload: await revokeCaregiverLink(deps, user, request.params.linkId, meta) };
  });

  app.get("/caregivers/mine", access("patient", docs.mine), async (request) => {
    const { user } = await call(request);
    return { payload: await myCaregiverLinks(deps, user) };
  });
  app.delete("/caregivers/mine/:linkId", access("patient", docs.revokeMine), async (request: LinkRequest) => {
    const { user, meta } = await call(request);
    return { payload: await revokeMyCaregiverLink(deps, user, request.params.linkId, meta) };
  });
  app.get("/scheduling/patient", access("patient", docs.scheduling, { caregiverPart: "agendamiento" }), async (request) => {
    const { user, meta } = await call(request);
    return { payload: await schedulingPatient(deps, user, meta) };
  });
}
