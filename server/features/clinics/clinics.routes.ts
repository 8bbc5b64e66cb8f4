import { access } from "../../http/route-access.ts";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { parseInput } from "../../http/validate.ts";
import { z } from "zod";
import { payloadOf, ZClinicSettings } from "../../contract/api.dto.ts";
import type { RouteDocs } from "../../http/route-docs.ts";
import { clinicSettings, ZClinicSettingsInput } from "./clinics.service.ts";

/** The API document's entry (served at /api/docs), with the schema the route validates with. */
const settingsDocs: RouteDocs = {
  tag: "Clínicas",
  summary: "Marca, enlaces y marcos de agenda de una clínica (sin sesión)",
  params: z.object({ key: ZClinicSettingsInput.shape.clinic }),
  response: payloadOf(ZClinicSettings),
};

/** REST /api/rcr/v1/clinics/:key/settings: a clinic's public branding, links and scheduling frames. */
export async function clinicsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get<{ Params: { key: string } }>("/clinics/:key/settings", access("public", settingsDocs), async (request) => {
    const { clinic } = parseInput(ZClinicSettingsInput, { clinic: request.params.key });
    return { payload: clinicSettings(deps.config, clinic) };
  });
}
