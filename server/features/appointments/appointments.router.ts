import { z } from "zod";
import { actingPatientProcedure, router } from "../../trpc/trpc.ts";
import { appointmentCalendarFile, cancelAppointment, confirmAppointment, listAppointments } from "./appointments.service.ts";

/** tRPC over the same service as REST /appointments (access: patient, or a caregiver for 'Agendamiento'). */
export const appointmentsRouter = router({
  list: actingPatientProcedure("agendamiento", "appointment.list")
    .input(z.object({ refresh: z.boolean().optional() }).optional())
    .query(({ ctx, input }) => listAppointments(ctx.deps, ctx.user, ctx.meta, { refresh: input?.refresh })),
  calendar: actingPatientProcedure("agendamiento", "appointment.calendar")
    .input(z.object({ id: z.string().max(64) }))
    .query(({ ctx, input }) => appointmentCalendarFile(ctx.deps, ctx.user, input.id, ctx.meta)),
  cancel: actingPatientProcedure("agendamiento", "appointment.cancel")
    .input(z.object({ id: z.string().max(64) }))
    .mutation(({ ctx, input }) => cancelAppointment(ctx.deps, ctx.user, input.id, ctx.meta)),
  confirm: actingPatientProcedure("agendamiento", "appointment.confirm")
    .input(z.object({ id: z.string().max(64) }))
    .mutation(({ ctx, input }) => confirmAppointment(ctx.deps, ctx.user, input.id, ctx.meta)),
});
