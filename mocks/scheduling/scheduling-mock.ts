import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { htmlContentType } from "../html.ts";
import { BookingLedger, seedDemoBookings } from "./bookings.ts";
import { findCenter } from "./centers.ts";
import { isValidRut, normalizeRut } from "./rut.ts";
import { AgendaSearchLog, schedulingFhir } from "./scheduling-fhir.ts";
import { renderAgendaPage, renderBookingConfirmedPage, renderBookingErrorPage, renderCenterNotFoundPage } from "./scheduling-pages.ts";
import { upcomingDates, upcomingSlots } from "./slots.ts";

export { schedulingCenters } from "./centers.ts";

export interface SchedulingMockOptions {
  /** Origins allowed to embed the pages, in addition to the local portal dev origins. */
  frameAncestors?: string[];
  /** Clock used to compute the upcoming days; injectable for tests. */
  now?: () => Date;
  /** Appointments shared by the pages and the FHIR API; a new ledger with the demo patients' appointments when unset. */
  ledger?: BookingLedger;
}

export const defaultFrameAncestors = ["http://localhost:4200", "http://*.localhost:4200", "http://127.0.0.1:4200"];

export function frameAncestorsPolicy(extraOrigins: string[] = []): string {
  for (const origin of extraOrigins) {
    // A space, comma or semicolon would let an origin smuggle extra CSP sources or directives.
    if (!/^[^\s,;]+$/.test(origin)) throw new Error(`Origen inválido para frame-ancestors: «${origin}»`);
  }
  const sources = [...new Set(["'self'", ...defaultFrameAncestors, ...extraOrigins])];
  return `frame-ancestors ${sources.join(" ")}`;
}

const optionalText = z.string().optional().catch(undefined);
const agendaQuerySchema = z.object({ externalCenterId: optionalText, rut: optionalText, email: optionalText });

const bookingSchema = z.object(
  {
    externalCenterId: z.string({ error: "Falta el centro" }).refine((id) => findCenter(id) !== undefined, {
      error: "Centro no encontrado",
    }),
    slotId: z
      .string({ error: "Falta la hora a reservar" })
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, { error: "La hora seleccionada no es válida" }),
    rut: z
      .string({ error: "Ingrese el RUT del paciente" })
      .trim()
      .min(1, { error: "Ingrese el RUT del paciente", abort: true })
      .refine(isValidRut, { error: "El RUT ingresado no es válido" })
      .transform(normalizeRut),
    email: z
      .string({ error: "Ingrese el correo electrónico del paciente" })
      .trim()
      .pipe(z.email({ error: "El correo electrónico no es válido" })),
  },
  { error: "La solicitud de reserva no es válida" },
);

export const schedulingMock: FastifyPluginAsync<SchedulingMockOptions> = async (app, options) => {
  const contentSecurityPolicy = frameAncestorsPolicy(options.frameAncestors);
  const now = options.now ?? (() => new Date());
  const ledger = options.ledger ?? new BookingLedger();
  if (!options.ledger) seedDemoBookings(ledger, now());

  const freeSlots = (externalCenterId: string) =>
    upcomingSlots(externalCenterId, now()).filter((slot) => !ledger.isBooked(externalCenterId, slot.id));

  // The booking form is a plain HTML form post; Fastify only parses JSON and text out of the box.
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  // The same appointments as HL7 FHIR R4 (scheduling-fhir.ts): bookings in the pages appear there at once.
  const searchLog = new AgendaSearchLog();
  app.register(schedulingFhir, { prefix: "/agenda/fhir", ledger, now, searchLog });

  app.addHook("onSend", async (_request, reply) => {
    reply.header("Content-Security-Policy", contentSecurityPolicy);
    reply.header("Cache-Control", "no-store");
  });

  app.get("/agenda", async (request, reply) => {
    const query = agendaQuerySchema.parse(request.query);
    const center = findCenter(query.externalCenterId);
    reply.type(htmlContentType);
    if (!center) return reply.code(400).send(renderCenterNotFoundPage(query.externalCenterId));
    return reply.send(
      renderAgendaPage({
        center,
        dates: upcomingDates(now()),
        freeSlots: freeSlots(center.externalCenterId),
        patient: { rut: query.rut, email: query.email },
      }),
    );
  });

  // The simulator's own record (not part of FHIR): how many Appointment searches it answered, by patient and by date.
  app.get("/agenda/registro", async () => ({ appointmentSearches: searchLog.searches }));

  app.post("/agenda/reservar", async (request, reply) => {
    reply.type(htmlContentType);
    const parsed = bookingSchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      const rawCenterId = (request.body as { externalCenterId?: unknown } | undefined)?.externalCenterId;
      const center = typeof rawCenterId === "string" ? findCenter(rawCenterId) : undefined;
      const errors = [...new Set(parsed.error.issues.map((issue) => issue.message))];
      return reply.code(400).send(renderBookingErrorPage(center, errors));
    }

    const { externalCenterId, slotId, rut, email } = parsed.data;
    const center = findCenter(externalCenterId);
    const slot = freeSlots(externalCenterId).find((candidate) => candidate.id === slotId);
    if (!center || !slot) {
      return reply.code(409).send(renderBookingErrorPage(center, ["La hora seleccionada ya no está disponible"]));
    }
    const booking = ledger.book(externalCenterId, slot, { rut, email }, { now: now() });
    return reply.send(renderBookingConfirmedPage(center, booking));
  });
};
