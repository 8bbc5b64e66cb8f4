// The zod-free part of the contract of the patient's rights over their data (issue 28; data-rights.schemas.ts re-exports
// it): sizes, deadlines, labels and messages the screens show. 'Mis datos' shows them before any of its forms is used,
// so they must not bring zod (issue 46: building the contract's schemas was 0.2 s of a throttled phone's main thread
// before the page's first paint).

export const ACCESS_PAGE_SIZE = 20;
/** A request's legal deadline: calendar days from its receipt (Law 21.719). */
export const RIGHTS_REQUEST_DEADLINE_DAYS = 30;
export const EXPORT_OFFERED_HOURS = 24;
export const EXPORT_MIN_INTERVAL_MINUTES = 60;

/** 'Solo otras personas' (issue 45 §8): only what someone other than the patient did, or everything. */
export const ACCESS_SCOPES = ["others", "all"] as const;
export type AccessScope = (typeof ACCESS_SCOPES)[number];

export const RIGHTS_REQUEST_KINDS = ["rectification", "email_opposition", "account_closure"] as const;
export type RightsRequestKindName = (typeof RIGHTS_REQUEST_KINDS)[number];
export const rightsRequestKindLabels: Record<RightsRequestKindName, string> = {
  rectification: "Rectificación de un dato",
  email_opposition: "Oposición a avisos por correo electrónico",
  account_closure: "Cierre de la cuenta del portal",
};

export const RIGHTS_REQUEST_STATUSES = ["received", "in_progress", "resolved", "rejected"] as const;
export type RightsRequestStatusName = (typeof RIGHTS_REQUEST_STATUSES)[number];
export const rightsRequestStatusLabels: Record<RightsRequestStatusName, string> = {
  received: "Recibida",
  in_progress: "En curso",
  resolved: "Resuelta",
  rejected: "Rechazada",
};

/**
 * Fields a patient cannot edit in 'Datos personales' (PATIENT_EDITABLE_FIELDS, contract/profile.ts) and may ask to have
 * corrected: the RUT, or another datum the clinic holds. Names and birth date they correct themselves (issue 45 §5).
 */
export const RECTIFIABLE_FIELDS = ["rut", "other"] as const;
/** Rectifications staff apply in the portal from the queue (the patient's record): the RUT and the personal data. */
export const APPLICABLE_FIELDS = ["rut", "firstName", "secondName", "lastName", "secondLastName", "birthDate"] as const;
export const isApplicableField = (field: string | null): boolean => (APPLICABLE_FIELDS as readonly string[]).includes(field ?? "");

/** The field of a request as the screens name it; requests sent before issue 45 may name a personal datum too. */
export const requestFieldLabels: Record<string, string> = {
  rut: "RUT",
  other: "Otro dato",
  firstName: "Primer nombre",
  secondName: "Segundo nombre",
  lastName: "Apellido paterno",
  secondLastName: "Apellido materno",
  birthDate: "Fecha de nacimiento",
};

export const rightsRequestMessages = {
  fieldRequired: "Seleccione el dato que está incorrecto",
  valueRequired: "Ingrese el valor correcto",
  valueTooLong: "El valor correcto puede tener hasta 200 caracteres",
  detailsTooLong: "El detalle puede tener hasta 1000 caracteres",
  reasonRequired: "Ingrese el motivo del rechazo",
  confirmChange: "Confirme que se aplica el cambio del dato antes de resolver",
  noteRequired: "Indique qué se corrigió y dónde",
  alreadyOpen: "Ya tiene una solicitud de este tipo en trámite",
  notFound: "La solicitud no existe",
  finished: "La solicitud ya fue resuelta o rechazada",
  sent: (id: number) => `Solicitud N° ${id} enviada. La clínica le responderá por correo electrónico.`,
  listFailed: "No fue posible cargar las solicitudes, por favor intente más tarde",
} as const;

export const EXPORT_STATUSES = ["preparing", "ready", "failed"] as const;

export const dataExportMessages = {
  tooSoon: (time: string) => `Ya pidió sus datos hace menos de una hora. Podrá pedirlos de nuevo a las ${time}.`,
  expired: "La descarga ya no está disponible. Pida sus datos de nuevo.",
  notReady: "Sus datos aún se están preparando. Intente en unos segundos.",
  failed: "No fue posible preparar sus datos, por favor intente más tarde",
  linkInvalid: "El enlace de descarga no es válido o expiró. Vuelva a 'Mis datos' y descárguelos de nuevo.",
} as const;
