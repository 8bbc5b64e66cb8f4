import { z } from "zod";
import { Role, type RoleType } from "@contract/roles.ts";
import {
  adminEditEmailSchema,
  birthDateSchema,
  createUserEmailSchema,
  messages,
  optionalNameSchema,
  personNameSchema,
  phoneSchema,
  rutSchema,
} from "@contract/validation.ts";
import type { UserDetailDto } from "@contract/users.dto.ts";

// Form rules and the save plan of the staff user screens. Every rule comes from server/contract/validation.ts.

/** SPEC §8 texts of the staff user screens. */
export const userScreenMessages = {
  loadFailed: "Hubo un error al procesar la solicitud, por favor intente más tarde",
  updateFailed: "Error de sistema, por favor vuelva a intentarlo",
  privilegesFailed: "Error al editar privilegios",
  saved: "Cambios actualizados",
  savedBody: "¡Los cambios fueron guardados exitosamente!",
  created: "Cuenta creada",
  notFound: "No se encontraron usuarios",
} as const;

export const ADMIN_USERS_PATH = "/admin/admin-users";
export const CREATE_USER_PATH = "/admin/create-user";
export const editUserPath = (id: number) => `/admin/edit-user?userId=${id}`;

/** The role types in the order of the selects (Administrador 0, Ejecutivo 1, Paciente 2). */
export const roleTypes: RoleType[] = [Role.admin, Role.executive, Role.patient];

export function toRoleType(value: string): RoleType | undefined {
  return roleTypes.find((role) => String(role) === value);
}

/** Create-user form (SPEC §2, §5): both the Rut and the e-mail ('La dirección de correo es incorrecta') must be valid. */
export const createUserFormSchema = z.object({ rut: rutSchema, email: createUserEmailSchema });

/**
 * A personal-data field staff may leave empty: a new account has no names, phone or birth date until its owner
 * completes them at the first login (the server stores an empty field as null). A filled field follows its rule.
 */
function blankOr(schema: z.ZodType) {
  return z.string().superRefine((value, ctx) => {
    if (value.trim() === "") return;
    const result = schema.safeParse(value);
    if (!result.success) ctx.addIssue({ code: "custom", message: result.error.issues[0]?.message ?? messages.required });
  });
}

/** Edit-user form: names, e-mail ('Email inválido' on this screen), phone and birth date. */
export const editUserFormSchema = z.object({
  firstName: blankOr(personNameSchema),
  secondName: optionalNameSchema,
  lastName: blankOr(personNameSchema),
  secondLastName: blankOr(personNameSchema),
  email: adminEditEmailSchema,
  phoneNumber: blankOr(phoneSchema),
  birthDate: blankOr(birthDateSchema),
});

export interface EditUserValues extends Record<string, string> {
  firstName: string;
  secondName: string;
  lastName: string;
  secondLastName: string;
  email: string;
  phoneNumber: string;
  birthDate: string;
}

/** The edit-user fields in the order of the form, with the label each shows and the error summary names it by. */
export const editUserFieldLabels = {
  firstName: "Primer nombre",
  secondName: "Segundo nombre (opcional)",
  lastName: "Apellido paterno",
  secondLastName: "Apellido materno",
  email: "Correo electrónico",
  phoneNumber: "Teléfono",
  birthDate: "Fecha de nacimiento",
} as const satisfies Record<keyof EditUserValues, string>;
export type EditUserField = keyof typeof editUserFieldLabels;
export const editUserFieldId = (name: EditUserField) => `usuario-${name}`;

export function editUserValues(user: UserDetailDto): EditUserValues {
  return {
    firstName: user.firstName ?? "",
    secondName: user.secondName ?? "",
    lastName: user.lastName ?? "",
    secondLastName: user.secondLastName ?? "",
    email: user.email,
    phoneNumber: user.phoneNumber ?? "",
    birthDate: user.birthDate ?? "",
  };
}

/** The clinic keys the user holds privileges for (executives). */
export function privilegeCodes(user: UserDetailDto): string[] {
  return user.privileges.map((privilege) => privilege.codeClinicStr);
}

export interface PrivilegePlanInput {
  viewerIsAdmin: boolean;
  /** The role stored on the server before this save. */
  savedRole: number;
  /** The role this save stores. */
  newRole: number;
  /** The clinics stored on the server before this save. */
  savedClinics: string[];
  /** The clinics chosen in the multi-select. */
  selectedClinics: string[];
}

export interface PrivilegePlan {
  /** Send an empty privilege list BEFORE the user update (an executive who stops being one: SPEC §4). */
  clearBefore: boolean;
  /** Send this privilege list AFTER the user update (the user is, or becomes, an executive), or nothing. */
  setAfter: string[] | null;
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((code) => b.includes(code));

/**
 * What 'Guardar cambios' sends besides the user update. Only admins handle privileges. An executive keeps the
 * selected clinics (sent after the update, when they changed or the role just became executive). Any other role
 * keeps none: the list is cleared first, while the user is still an executive — the server refuses privileges for
 * other roles, and its update also drops them in the same transaction, so nothing is sent when there is none.
 */
export function privilegePlan({ viewerIsAdmin, savedRole, newRole, savedClinics, selectedClinics }: PrivilegePlanInput): PrivilegePlan {
  if (!viewerIsAdmin) return { clearBefore: false, setAfter: null };
  if (newRole === Role.executive) {
    const unchanged = savedRole === Role.executive && sameSet(savedClinics, selectedClinics);
    return { clearBefore: false, setAfter: unchanged ? null : [...selectedClinics] };
  }
  return { clearBefore: savedRole === Role.executive && savedClinics.length > 0, setAfter: null };
}

/** What the multi-select's closed state shows: the first two selected clinics, then '+N' for the rest (SPEC §9). */
export function chipModel<T>(selected: T[], visible = 2): { chips: T[]; more: number } {
  return { chips: selected.slice(0, visible), more: Math.max(0, selected.length - visible) };
}
