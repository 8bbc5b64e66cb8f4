import type { z } from "zod";
import type { AppDeps, RequestMeta } from "../deps.ts";
import { formatRut, normalizeRut } from "../contract/rut.ts";
import { birthDateSchema, optionalNameSchema, personNameSchema, rutSchema } from "../contract/validation.ts";
import { dayToDate } from "../contract/days.ts";
import { updateUser as writeUser, type UserChanges } from "../db/users.repository.ts";
import { parseInput } from "../http/validate.ts";
import type { SessionUser } from "../http/authenticate.ts";
import { audit } from "./audit.ts";
import { AppError } from "./errors.ts";

// A rectification staff apply from 'Solicitudes de pacientes' (issue 45 §5). The datum is written by the one write of
// a user's personal data (db/users.repository.ts updateUser, the same the staff edit and 'Mis datos' use: search text,
// caches), checked by the same rules as those forms (contract/validation.ts) and audited the same way, 'user.update'
// with the before and after. Kept in lib/: the requests feature applies it, and features do not import each other.

const rules: Record<string, z.ZodType<string>> = {
  rut: rutSchema,
  firstName: personNameSchema,
  secondName: optionalNameSchema as z.ZodType<string>,
  lastName: personNameSchema,
  secondLastName: personNameSchema,
  birthDate: birthDateSchema,
};

const userFields = {
  id: true,
  rut: true,
  email: true,
  firstName: true,
  secondName: true,
  lastName: true,
  secondLastName: true,
  birthDate: true,
  roleType: true,
} as const;

const shown = (field: string, value: unknown): string => {
  if (value instanceof Date) return value.toISOString().slice(0, 10).split("-").reverse().join("-");
  return field === "rut" ? formatRut(String(value)) : String(value ?? "");
};

/**
 * Changes the patient's `field` to `value` (as the patient wrote it: a birth date dd-mm-aaaa is read as that day).
 * Returns the datum as the patient reads it. Throws BAD_REQUEST (the form's rule message), CONFLICT (a RUT another
 * account has). The caller has checked that the staff member may handle this patient.
 */
export async function applyRectification(
  deps: AppDeps,
  actor: SessionUser,
  patientId: number,
  field: string,
  value: string,
  meta: RequestMeta,
): Promise<string> {
  const rule = rules[field];
  if (!rule) throw new AppError("BAD_REQUEST", "Este dato no se cambia desde el portal");
  const written = field === "birthDate" ? value.trim().replace(/^(\d{2})-(\d{2})-(\d{4})$/, "$3-$2-$1") : value;
  const valid = parseInput(rule, written);
  const changes: UserChanges =
    field === "rut"
      ? { rut: normalizeRut(valid) }
      : field === "birthDate"
        ? { birthDate: dayToDate(valid.slice(0, 10)) }
        : { [field]: valid };
  const current = await deps.prisma.user.findUniqueOrThrow({ where: { id: patientId }, select: userFields });
  if (changes.rut && changes.rut !== current.rut && (await deps.prisma.user.count({ where: { rut: changes.rut } })) > 0)
    throw new AppError("CONFLICT", `Ya existe una cuenta con el Rut ${formatRut(changes.rut)}`);
  const updated = await writeUser(deps.prisma, current, changes, userFields);
  await audit(deps, actor, meta, {
    action: "user.update",
    target: updated,
    before: { [field]: shown(field, current[field as keyof typeof current]) },
    after: { [field]: shown(field, updated[field as keyof typeof updated]), rightsRequest: true },
  });
  return shown(field, updated[field as keyof typeof updated]);
}
