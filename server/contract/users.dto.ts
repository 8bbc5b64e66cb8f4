import { z } from "zod";
import { formatRut } from "./rut.ts";

// Response schemas of the user calls: the types below are inferred from them, and the API document (/api/docs)
// is generated from them, so what the server answers, what the web reads and what the docs say cannot drift apart.

/** The user as the API shows it (SPEC §3 User). Never carries the password hash or token version. */
export const ZUserDto = z.object({
  id: z.number().int(),
  rut: z.string(),
  firstName: z.string().nullable(),
  secondName: z.string().nullable(),
  lastName: z.string().nullable(),
  secondLastName: z.string().nullable(),
  name: z.string().describe("Nombre para mostrar: nombre y apellidos"),
  email: z.string(),
  phoneNumber: z.string().nullable(),
  birthDate: z.string().nullable().describe("YYYY-MM-DD"),
  roleType: z.number().int().describe("0 administrador, 1 ejecutivo, 2 paciente"),
  hasChangedPassword: z.boolean(),
  dateTyc: z.string().nullable().describe("Fecha ISO de aceptación de los términos; null si no los ha aceptado"),
});
export type UserDto = z.infer<typeof ZUserDto>;

export interface UserDtoSource {
  id: number;
  rut: string;
  firstName: string | null;
  secondName: string | null;
  lastName: string | null;
  secondLastName: string | null;
  email: string;
  phoneNumber: string | null;
  birthDate: Date | null;
  roleType: number;
  hasChangedPassword: boolean;
  dateTyc: Date | null;
}

export function toUserDto(user: UserDtoSource): UserDto {
  return {
    id: user.id,
    rut: formatRut(user.rut),
    firstName: user.firstName,
    secondName: user.secondName,
    lastName: user.lastName,
    secondLastName: user.secondLastName,
    name: [user.firstName, user.lastName, user.secondLastName].filter(Boolean).join(" "),
    email: user.email,
    phoneNumber: user.phoneNumber,
    birthDate: user.birthDate ? user.birthDate.toISOString().slice(0, 10) : null,
    roleType: user.roleType,
    hasChangedPassword: user.hasChangedPassword,
    dateTyc: user.dateTyc ? user.dateTyc.toISOString() : null,
  };
}

/** A clinic privilege as the API shows it (SPEC §3 Privilege: id_clinic is the clinic's numeric code). */
export const ZPrivilegeDto = z.object({
  id_clinic: z.number().int(),
  codeClinicStr: z.string(),
  id_permission: z.number().int(),
  id_user: z.number().int(),
});
export type PrivilegeDto = z.infer<typeof ZPrivilegeDto>;

export function toPrivilegeDto(row: {
  userId: number;
  codeClinicStr: string;
  idPermission: number;
  clinic: { code: number };
}): PrivilegeDto {
  return { id_clinic: row.clinic.code, codeClinicStr: row.codeClinicStr, id_permission: row.idPermission, id_user: row.userId };
}

/** One user for the edit screen: the user, its clinic privileges (executives) and the clinics it is registered with (patients). */
export const ZUserDetailDto = ZUserDto.extend({ privileges: z.array(ZPrivilegeDto), patientClinics: z.array(z.string()) });
export type UserDetailDto = z.infer<typeof ZUserDetailDto>;

/** SPEC §3 user list response. */
export const ZUsersPage = z.object({ usersList: z.array(ZUserDto), page: z.number().int(), total: z.number().int() });
export type UsersPage = z.infer<typeof ZUsersPage>;

/** A clinic of the catalogue (SPEC §3 Clinic), as the staff screens' clinic multi-select shows it. */
export const ZClinicDto = z.object({ code: z.number().int(), codeClinicStr: z.string(), title: z.string() });
export type ClinicDto = z.infer<typeof ZClinicDto>;
