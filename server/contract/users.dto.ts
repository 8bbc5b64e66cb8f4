import { formatRut } from "./rut.ts";

/** The user as the API shows it (SPEC §3 User). Never carries the password hash or token version. */
export interface UserDto {
  id: number;
  rut: string;
  firstName: string | null;
  secondName: string | null;
  lastName: string | null;
  secondLastName: string | null;
  /** Display name: first name and last names. */
  name: string;
  email: string;
  phoneNumber: string | null;
  /** YYYY-MM-DD */
  birthDate: string | null;
  roleType: number;
  hasChangedPassword: boolean;
  /** ISO timestamp of the terms acceptance, null while not accepted. */
  dateTyc: string | null;
}

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
export interface PrivilegeDto {
  id_clinic: number;
  codeClinicStr: string;
  id_permission: number;
  id_user: number;
}

export function toPrivilegeDto(row: {
  userId: number;
  codeClinicStr: string;
  idPermission: number;
  clinic: { code: number };
}): PrivilegeDto {
  return { id_clinic: row.clinic.code, codeClinicStr: row.codeClinicStr, id_permission: row.idPermission, id_user: row.userId };
}

/** One user for the edit screen: the user, its clinic privileges (executives) and the clinics it is registered with (patients). */
export interface UserDetailDto extends UserDto {
  privileges: PrivilegeDto[];
  patientClinics: string[];
}

/** SPEC §3 user list response. */
export interface UsersPage {
  usersList: UserDto[];
  page: number;
  total: number;
}

/** A clinic of the catalogue (SPEC §3 Clinic), as the staff screens' clinic multi-select shows it. */
export interface ClinicDto {
  code: number;
  codeClinicStr: string;
  title: string;
}
