import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { payloadOf } from "../../contract/api.dto.ts";
import { ZAppointmentDto } from "../../contract/appointments.dto.ts";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { parseInput } from "../../http/validate.ts";
import { access } from "../../http/route-access.ts";
import { fileResponse, type RouteDocs } from "../../http/route-docs.ts";
import {
  appointmentCalendarFile,
  cancelAppointment,
  confirmAppointment,
  listAppointments,
  ZAppointmentId,
  ZAppointmentsQuery,
} from "./appointments.service.ts";

const tag = "Mis citas";
const byId = z.object({ id: ZAppointmentId });
/** The API document's entry of each route (served at /api/docs), with the schemas the service validates with. */
const docs = {
  list: {
    tag,
    summary: "Horas del paciente en la agenda de las clínicas: primero las próximas, luego las pasadas",
    querystring: ZAppointmentsQuery,
    response: payloadOf(z.array(ZAppointmentDto)),
    errors: [502, 504],
  },
  calendar: {
    tag,
    summary: "Una hora como archivo iCalendar (RFC 5545) para agregarla al calendario, en hora de Chile",
    params: byId,
    response: fileResponse("text/calendar", "Archivo .ics con la hora, el lugar y el profesional (TZID America/Santiago)"),
    errors: [404, 502, 504],
  },
  cancel: {
    tag,
    summary: "Anula una hora reservada, fuera del plazo de anulación de su clínica (por omisión 2 horas antes)",
    params: byId,
    response: payloadOf(ZAppointmentDto),
    errors: [404, 409, 502, 504],
  },
  confirm: {
    tag,
    summary: "Confirma la asistencia a una hora reservada",
    params: byId,
    response: payloadOf(ZAppointmentDto),
    errors: [404, 409, 502, 504],
  },
} satisfies Record<string, RouteDocs>;

/** REST /api/rcr/v1/appointments (issue 44, 'Mis citas'): the patient's appointments, or a dependent's ('Ver como'). */
export async function appointmentsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const part = { caregiverPart: "agendamiento" } as const;

  app.get("/appointments", access("patient", docs.list, part), async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    const { actualizar } = parseInput(ZAppointmentsQuery, request.query);
    return { payload: await listAppointments(deps, user, requestMeta(request), { refresh: actualizar }) };
  });

  app.get<{ Params: { id: string } }>("/appointments/:id/calendar.ics", access("patient", docs.calendar, part), async (request, reply) => {
    const user = await requireUser(deps, request.headers.authorization);
    const { fileName, content } = await appointmentCalendarFile(deps, user, request.params.id, requestMeta(request));
    return reply
      .header("content-type", "text/calendar; charset=utf-8")
      .header("content-disposition", `attachment; filename="${fileName}"`)
      .send(content);
  });

  app.post<{ Params: { id: string } }>("/appointments/:id/cancel", access("patient", docs.cancel, part), async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    return { payload: await cancelAppointment(deps, user, request.params.id, requestMeta(request)) };
  });

  app.post<{ Params: { id: string } }>("/appointments/:id/confirm", access("patient", docs.confirm, part), async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    return { payload: await confirmAppointment(deps, user, request.params.id, requestMeta(request)) };
  });
}
