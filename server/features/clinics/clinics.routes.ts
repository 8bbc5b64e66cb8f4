import { access } from "../../http/route-access.ts";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { parseInput } from "../../http/validate.ts";
import { clinicSettings, ZClinicSettingsInput } from "./clinics.service.ts";

/** REST /api/rcr/v1/clinics/:key/settings: a clinic's public branding, links and scheduling frames. */
export async function clinicsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get<{ Params: { key: string } }>("/clinics/:key/settings", access("public"), async (request) => {
    const { clinic } = parseInput(ZClinicSettingsInput, { clinic: request.params.key });
    return { payload: clinicSettings(deps.config, clinic) };
  });
}
