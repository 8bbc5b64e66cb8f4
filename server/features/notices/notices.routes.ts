import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { payloadOf } from "../../contract/api.dto.ts";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import type { RouteDocs } from "../../http/route-docs.ts";
import { getNoticePreferences, updateNoticePreferences, ZNoticePreferencesInput } from "./notices.service.ts";

const tag = "Mi cuenta";
const ZNoticePreferences = z.object({ results: z.boolean(), bills: z.boolean(), appointments: z.boolean() });
const docs = {
  get: {
    tag,
    summary: "Avisos por correo que recibe el paciente (nuevos resultados, nuevas cuentas, recordatorio de horas)",
    response: payloadOf(ZNoticePreferences),
  },
  update: {
    tag,
    summary: "Activa o desactiva cada tipo de aviso por correo",
    body: ZNoticePreferencesInput,
    response: payloadOf(ZNoticePreferences),
  },
} satisfies Record<string, RouteDocs>;

/** REST /account/notices ('Mi cuenta' → 'Avisos'): the signed-in patient's own notice preferences. */
export async function noticesRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get("/account/notices", { config: { access: "patient", docs: docs.get } }, async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    return { payload: await getNoticePreferences(deps, user) };
  });

  app.put("/account/notices", { config: { access: "patient", docs: docs.update } }, async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    return { payload: await updateNoticePreferences(deps, user, request.body) };
  });
}
