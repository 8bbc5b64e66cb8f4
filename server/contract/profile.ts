// SPEC §5 profile completeness, without zod: the route guards of every signed-in page ask it before the page shows,
// and the browser loads zod only with the forms that need it (issue 14).

export interface ProfileFields {
  firstName?: string | null;
  lastName?: string | null;
  secondLastName?: string | null;
  phoneNumber?: string | null;
  email?: string | null;
  birthDate?: string | Date | null;
}

/** SPEC §5 profile completeness: these six fields must all be present. */
export function isProfileComplete(user: ProfileFields): boolean {
  return [user.firstName, user.lastName, user.secondLastName, user.phoneNumber, user.email, user.birthDate].every(
    (value) => value !== null && value !== undefined && String(value).trim() !== "",
  );
}

/**
 * The personal data a patient edits themself in 'Mis datos' → 'Datos personales' (the one list: the account service
 * takes these and no other, and 'Solicitudes' offers to rectify only what is not here; issue 45 §5).
 */
export const PATIENT_EDITABLE_FIELDS = [
  "firstName",
  "secondName",
  "lastName",
  "secondLastName",
  "email",
  "phoneNumber",
  "birthDate",
] as const;
