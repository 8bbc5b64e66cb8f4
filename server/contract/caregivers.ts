import { z } from "zod";

// Caregivers (issue 30): a caregiver (a patient account) acts for a dependent in some parts of the patient area.
// Shared by the staff form ('Cuidadores'), 'Ver como:', 'Mi cuenta' and the services.

import { CAREGIVER_PARTS, RELATIONSHIPS, type Relationship } from "./caregivers.parts.ts";
import { isCalendarDay } from "./days.ts";

export {
  ACTING_FOR_HEADER,
  CAREGIVER_PARTS,
  caregiverPartLabels,
  RELATIONSHIPS,
  relationshipLabels,
  type CaregiverPart,
  type Relationship,
} from "./caregivers.parts.ts";

/** The relationships that make a caregiver a minor's legal guardian: the minor cannot revoke such a link. */
export const GUARDIAN_RELATIONSHIPS: readonly Relationship[] = ["madre", "padre", "tutor-legal"];

export const caregiverMessages = {
  notLinked: "No tiene un vínculo de cuidador vigente que le permita ver estos datos de esta persona.",
  badActingFor: "El paciente indicado en X-Actuar-Por no es válido.",
  linkNotFound: "Vínculo no encontrado",
  dependentNotFound: "Paciente no encontrado",
  caregiverNotFound: "No hay un paciente con ese RUT. El cuidador debe tener una cuenta de paciente.",
  caregiverRutRequired: "Ingrese el RUT del cuidador, por ejemplo 12.345.678-5",
  samePerson: "El cuidador y la persona a su cuidado deben ser personas distintas.",
  alreadyLinked: "Esta persona ya tiene un vínculo vigente con ese cuidador. Renuévelo o revóquelo.",
  guardianOfMinor: "Este vínculo es de su tutor legal mientras usted sea menor de edad; solo la clínica puede revocarlo.",
  notYours: "Este vínculo no es suyo.",
  alreadyRevoked: "El vínculo ya fue revocado.",
  partsRequired: "Elija al menos una parte del portal",
  relationshipRequired: "Elija la relación con el paciente",
  documentRequired: "Indique el documento que vio, por ejemplo 'Certificado de nacimiento'",
  expiresRequired: "Indique la fecha de término del vínculo",
  expiresInPast: "La fecha de término debe ser hoy o posterior",
  minorUntilRequired: "Indique la fecha en que cumple 18 años",
  expiresAfterEighteen: "El vínculo de un menor termina a más tardar el día en que cumple 18 años",
  notACalendarDay: "Esa fecha no existe en el calendario: revise el día y el mes",
  adultAtMostOneYear: "El vínculo de un adulto dura a lo más un año desde hoy; para seguir después, renuévelo",
  renewedAtMostOneYear: "Un vínculo renovado dura a lo más un año desde hoy, o desde el día en que la persona cumple 18 años",
} as const;

/** Links last at most this long from today (or, renewed while the dependent is a minor, from their 18th birthday). */
export const CAREGIVER_LINK_MAX_YEARS = 1;

/** A "YYYY-MM-DD" day that exists on the calendar: `message` when it is missing or malformed, another when it does not exist. */
const isoDay = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine(isCalendarDay, caregiverMessages.notACalendarDay);

/** Staff create a link from the dependent's edit page. */
export const ZCreateCaregiverLink = z.object({
  // Empty: the RUT is missing, not unknown (issue 45).
  caregiverRut: z
    .string({ error: caregiverMessages.caregiverRutRequired })
    .trim()
    .min(1, caregiverMessages.caregiverRutRequired)
    .max(20, caregiverMessages.caregiverNotFound),
  relationship: z.enum(RELATIONSHIPS, { error: caregiverMessages.relationshipRequired }),
  documentSeen: z.string({ error: caregiverMessages.documentRequired }).trim().min(3, caregiverMessages.documentRequired).max(200),
  parts: z
    .array(z.enum(CAREGIVER_PARTS, { error: caregiverMessages.partsRequired }), { error: caregiverMessages.partsRequired })
    .min(1, caregiverMessages.partsRequired)
    .max(3),
  /** Last day the link works (YYYY-MM-DD). */
  expiresOn: isoDay(caregiverMessages.expiresRequired),
  /** When the dependent has no birth date on file: are they a minor, and on which day do they turn 18. */
  minor: z.boolean().optional(),
  minorUntil: isoDay(caregiverMessages.minorUntilRequired).optional(),
});

export const ZRenewCaregiverLink = z.object({ expiresOn: isoDay(caregiverMessages.expiresRequired) });

export const ZLinkId = z.coerce
  .number({ error: caregiverMessages.linkNotFound })
  .int()
  .positive(caregiverMessages.linkNotFound)
  .max(2 ** 31 - 1);

export const ZCaregiverPerson = z.object({ id: z.number(), rut: z.string(), name: z.string() });

export const ZCaregiverLinkDto = z.object({
  id: z.number(),
  caregiver: ZCaregiverPerson,
  dependent: ZCaregiverPerson,
  relationship: z.enum(RELATIONSHIPS),
  documentSeen: z.string(),
  parts: z.array(z.enum(CAREGIVER_PARTS)),
  /** YYYY-MM-DD */
  expiresOn: z.string(),
  minorUntil: z.string().nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  /** 'vigente', 'vencido' or 'revocado', today in Chile. */
  state: z.enum(["vigente", "vencido", "revocado"]),
  /** The dependent may revoke it themself (not a minor's legal guardian's). */
  revocableByDependent: z.boolean(),
});
export type CaregiverLinkDto = z.infer<typeof ZCaregiverLinkDto>;

/** 'Ver como:' and 'Mi cuenta' of a patient: whom they care for, and who cares for them. */
export const ZMyCaregiverLinks = z.object({ dependents: z.array(ZCaregiverLinkDto), caregivers: z.array(ZCaregiverLinkDto) });
export type MyCaregiverLinks = z.infer<typeof ZMyCaregiverLinks>;

/**
 * The staff form's fields as typed (strings; `parts` comma-separated, `minor` 'si'/'no' when the dependent has no birth
 * date on file): the same rules and messages as ZCreateCaregiverLink, checked in the browser before sending.
 */
export const ZCaregiverLinkForm = z
  .object({
    caregiverRut: z.string().trim().min(1, caregiverMessages.caregiverRutRequired).max(20),
    relationship: z.enum(RELATIONSHIPS, { error: caregiverMessages.relationshipRequired }),
    documentSeen: ZCreateCaregiverLink.shape.documentSeen,
    parts: z.string().min(1, caregiverMessages.partsRequired),
    expiresOn: isoDay(caregiverMessages.expiresRequired),
    minor: z.enum(["", "si", "no"]),
    minorUntil: z.string(),
  })
  .refine((form) => form.minor !== "si" || /^\d{4}-\d{2}-\d{2}$/.test(form.minorUntil), {
    error: caregiverMessages.minorUntilRequired,
    path: ["minorUntil"],
  });
