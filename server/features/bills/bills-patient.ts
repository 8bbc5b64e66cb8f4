import { z } from "zod";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import { Role } from "../../contract/roles.ts";
import { normalizeRut } from "../../contract/rut.ts";
import { rutSchema } from "../../contract/validation.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { visibleUsersWhere } from "../../lib/access.ts";
import { AppError } from "../../lib/errors.ts";
import { requireBillsStaff } from "./bills-access.ts";
import { audit } from "../../lib/audit.ts";

// Issue 33: the bill form shows whose RUT was typed, or says there is no such patient, before staff save. Names only
// of patients the actor may see (lib/access.ts visibleUsersWhere): an executive cannot read names outside their
// clinics by typing RUTs; one outside answers like a RUT without a patient.

export const ZBillPatientInput = z.object({ rut: rutSchema });

export const billPatientMessages = { none: "No existe un paciente con ese RUT" } as const;

/** The patient with that RUT, as the bill form shows it; NOT_FOUND 'No existe un paciente con ese RUT' otherwise. */
export async function billPatient(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<{ name: string }> {
  const actor = await requireBillsStaff(deps, user, meta, "bill.read");
  const { rut } = parseInput(ZBillPatientInput, input);
  const staff = actor.kind === "staff" ? actor.staff : null;
  const patient = await deps.prisma.user.findFirst({
    where: { AND: [{ rut: normalizeRut(rut), roleType: Role.patient }, staff ? visibleUsersWhere(staff) : {}] },
    select: { id: true, firstName: true, secondName: true, lastName: true, secondLastName: true },
  });
  await audit(deps, user, meta, {
    action: "bill.read",
    resourceId: normalizeRut(rut),
    patientId: patient?.id ?? null,
    outcome: patient ? "ok" : "denied",
  });
  if (!patient) throw new AppError("NOT_FOUND", billPatientMessages.none);
  const name = [patient.firstName, patient.secondName, patient.lastName, patient.secondLastName].filter(Boolean).join(" ");
  return { name: name || "Paciente sin nombre registrado" };
}
