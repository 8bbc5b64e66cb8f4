import { formatRut } from "../../contract/rut.ts";

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

export const userDtoSelect = {
  id: true,
  rut: true,
  firstName: true,
  secondName: true,
  lastName: true,
  secondLastName: true,
  email: true,
  phoneNumber: true,
  birthDate: true,
  roleType: true,
  hasChangedPassword: true,
  dateTyc: true,
} as const;

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

/** Lower-cased text the staff search matches against (RUT with and without dots, e-mail, names). */
export function userSearchText(user: Pick<UserDtoSource, "rut" | "email" | "firstName" | "secondName" | "lastName" | "secondLastName">): string {
  return [user.rut, formatRut(user.rut), user.email, user.firstName, user.secondName, user.lastName, user.secondLastName]
    .filter(Boolean)
    .join(" ")
    .toLowerCase();
}
