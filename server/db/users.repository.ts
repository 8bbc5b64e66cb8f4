import { formatRut } from "../contract/rut.ts";
import type { UserDtoSource } from "../contract/users.dto.ts";
import type { Prisma, PrismaClient } from "../generated/prisma/client.ts";
import { hashPassword } from "../lib/passwords.ts";
import { announceRowChange } from "./row-changes.ts";

// The one writer of the User table. It owns what every write must keep true: the search text (recomputed from the
// stored RUT, e-mail and names on every write that touches them) and the state a new account starts in. Services,
// the operator CLI, the seed, test fixtures and the benchmark all write users through these functions.

type UserWriter = Pick<PrismaClient, "user"> | Prisma.TransactionClient;

/** The fields the API shows of a user (the DTO's source), for `select`. */
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
} as const satisfies Prisma.UserSelect;

/** What the search text is made of. */
export type SearchFields = Pick<UserDtoSource, "rut" | "email" | "firstName" | "secondName" | "lastName" | "secondLastName">;

/** Lower-case text without accents or tildes ("Muñoz Pérez" → "munoz perez"), for accent-insensitive search. */
export function foldAccents(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/**
 * Lower-cased text the staff search matches against (RUT with and without dots, e-mail, names). Names with accents
 * are added a second time without them, so "gonzalez" finds "González" (the search folds its term the same way).
 */
export function userSearchText(user: SearchFields): string {
  const names = [user.firstName, user.secondName, user.lastName, user.secondLastName].filter(Boolean).join(" ").toLowerCase();
  const folded = foldAccents(names);
  return [user.rut.toLowerCase(), formatRut(user.rut).toLowerCase(), user.email.toLowerCase(), names, folded === names ? "" : folded]
    .filter(Boolean)
    .join(" ");
}

/** Escapes LIKE wildcards: Prisma's `contains` passes % and _ through to the pattern. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The LIKE patterns of a staff search (none for an empty term): the term, lower-cased, anywhere inside User.searchText
 * (trigram index), and its accent-free form when it has accents (userSearchText stores names both ways).
 */
export function userSearchPatterns(param: string | undefined): string[] {
  const term = (param ?? "").trim().toLowerCase();
  if (!term) return [];
  const folded = foldAccents(term);
  return [...new Set([term, folded])].map((text) => `%${escapeLike(text)}%`);
}

/** The search condition for Prisma: the same patterns as userSearchPatterns (Prisma's `contains` adds the %). */
export function userSearchWhere(param: string | undefined): Prisma.UserWhereInput {
  const contains = userSearchPatterns(param).map((pattern) => ({ searchText: { contains: pattern.slice(1, -1) } }));
  if (contains.length === 0) return {};
  return contains.length === 1 ? contains[0]! : { OR: contains };
}

/**
 * The state every new (or operator-reset) account starts in: terms not accepted and a password to change at the
 * first login (the password was chosen by someone else: staff, the operator, or the random temporary one).
 */
export const newAccountState = { hasChangedPassword: false, dateTyc: null } as const;

export interface NewUser {
  /** Normalized RUT (no dots, upper-case K). */
  rut: string;
  email: string;
  roleType: number;
  firstName?: string | null;
  secondName?: string | null;
  lastName?: string | null;
  secondLastName?: string | null;
  phoneNumber?: string | null;
  birthDate?: Date | null;
  /** Defaults to newAccountState; demo data and fixtures may start further along. */
  state?: { hasChangedPassword: boolean; dateTyc: Date | null };
}

/** The row of a new user with a password hash already computed (createMany in bulk loads). */
export function newUserRow(user: NewUser, passwordHash: string): Prisma.UserCreateManyInput {
  const names = {
    firstName: user.firstName ?? null,
    secondName: user.secondName ?? null,
    lastName: user.lastName ?? null,
    secondLastName: user.secondLastName ?? null,
  };
  return {
    rut: user.rut,
    email: user.email,
    roleType: user.roleType,
    ...names,
    phoneNumber: user.phoneNumber ?? null,
    birthDate: user.birthDate ?? null,
    passwordHash,
    ...(user.state ?? newAccountState),
    searchText: userSearchText({ rut: user.rut, email: user.email, ...names }),
  };
}

export interface CreateUserInput extends NewUser {
  /** Hashed here (argon2id); a fixture without a password passes `passwordHash` instead. */
  password?: string;
  passwordHash?: string;
  /** Executive privileges (clinic keys); stored with id_permission 1. */
  privileges?: string[];
  /** Clinics a patient is registered with. */
  patientClinics?: string[];
}

/** Creates a user (with its privileges and patient clinics) and returns the selected fields. */
export async function createUser<S extends Prisma.UserSelect>(
  db: UserWriter,
  input: CreateUserInput,
  select: S,
): Promise<Prisma.UserGetPayload<{ select: S }>> {
  const passwordHash = input.password !== undefined ? await hashPassword(input.password) : input.passwordHash;
  if (passwordHash === undefined) throw new Error("createUser: falta la contraseña");
  const created = await db.user.create({
    data: {
      ...newUserRow(input, passwordHash),
      privileges: input.privileges?.length
        ? { create: input.privileges.map((codeClinicStr) => ({ codeClinicStr, idPermission: 1 })) }
        : undefined,
      patientClinics: input.patientClinics?.length
        ? { create: input.patientClinics.map((codeClinicStr) => ({ codeClinicStr })) }
        : undefined,
    },
    select,
  });
  announceRowChange("User", (created as { id?: number }).id ?? 0);
  return created as Prisma.UserGetPayload<{ select: S }>;
}

/** Personal data and role a write may change; the search text follows from them. */
export interface UserChanges {
  /** Only a rectification staff apply from 'Solicitudes de pacientes' changes a RUT (issue 45 §5). */
  rut?: string;
  email?: string;
  firstName?: string | null;
  secondName?: string | null;
  lastName?: string | null;
  secondLastName?: string | null;
  phoneNumber?: string | null;
  birthDate?: Date | null;
  roleType?: number;
}

/**
 * Saves personal data (and role) of a stored user, recomputing the search text from `current` (the stored values)
 * overlaid with the changes. An undefined field is left as it is.
 */
export async function updateUser<S extends Prisma.UserSelect>(
  db: UserWriter,
  current: SearchFields & { id: number; roleType?: number },
  changes: UserChanges,
  select: S,
): Promise<Prisma.UserGetPayload<{ select: S }>> {
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as UserChanges;
  const next: SearchFields = { ...pickSearchFields(current), ...pickSearchFields({ ...current, ...defined }) };
  const searchText = userSearchText(next);
  const updated = await db.user.update({ where: { id: current.id }, data: { ...defined, searchText }, select });
  // What lists count by (role, search text) changed: "User"; else only the row's details (row-changes.ts).
  const newRole = defined.roleType !== undefined && defined.roleType !== current.roleType;
  const listed = newRole || searchText !== userSearchText(pickSearchFields(current));
  announceRowChange(listed ? "User" : "UserDetails", current.id);
  return updated as Prisma.UserGetPayload<{ select: S }>;
}

function pickSearchFields(user: SearchFields): SearchFields {
  const { rut, email, firstName, secondName, lastName, secondLastName } = user;
  return { rut, email, firstName, secondName, lastName, secondLastName };
}

/**
 * The operator's reset of an existing account (npm run user:create on a known RUT): new e-mail, role and password,
 * back to the new-account state (no second factor either), and every earlier session ended (tokenVersion goes up).
 * The names are kept.
 */
export async function resetAccount(
  db: UserWriter,
  current: SearchFields & { id: number },
  account: { email: string; roleType: number; password: string },
): Promise<void> {
  await db.user.update({
    where: { id: current.id },
    data: {
      email: account.email,
      roleType: account.roleType,
      passwordHash: await hashPassword(account.password),
      ...newAccountState,
      searchText: userSearchText({ ...pickSearchFields(current), email: account.email }),
      tokenVersion: { increment: 1 },
      // The operator's way back in for a person who lost the second factor (the only admin, say): set it up anew.
      totpSecret: null,
      totpPendingSecret: null,
      totpEnabledAt: null,
      totpLastStep: null,
    },
  });
  announceRowChange("User", current.id);
}

/**
 * Stores a new password hash and bumps tokenVersion, so every access token issued before stops working.
 * `hasChangedPassword` says whether the user chose it (true) or staff set it (false: to change at the next login).
 */
export async function setUserPassword(db: UserWriter, userId: number, password: string, options: { hasChangedPassword: boolean }) {
  const updated = await db.user.update({
    where: { id: userId },
    data: { passwordHash: await hashPassword(password), tokenVersion: { increment: 1 }, hasChangedPassword: options.hasChangedPassword },
  });
  announceRowChange("UserDetails", userId);
  return updated;
}

/** Records the date the user accepted the terms (the accepted version is kept in TermsAcceptance). */
export async function setTermsAccepted(db: UserWriter, userId: number, acceptedAt: Date) {
  const updated = await db.user.update({ where: { id: userId }, data: { dateTyc: acceptedAt } });
  announceRowChange("UserDetails", userId);
  return updated;
}

/** Removes a user that was just created (a welcome mail that could not be sent); its relations go with it. */
export async function deleteUser(db: UserWriter, userId: number): Promise<void> {
  await db.user.delete({ where: { id: userId } });
  announceRowChange("User", userId);
}

/** The second factor's state (issue 27) as the services change it; every other User write leaves it alone. */
export interface SecondFactorFields {
  totpSecret?: string | null;
  totpPendingSecret?: string | null;
  totpEnabledAt?: Date | null;
  totpLastStep?: number | null;
}

export async function setSecondFactor(db: UserWriter, userId: number, fields: SecondFactorFields): Promise<void> {
  await db.user.update({ where: { id: userId }, data: fields });
  announceRowChange("UserDetails", userId);
}

/**
 * Records that a TOTP code of `step` was used, unless one of that step or a later one was used already (a replayed
 * code, or the same code sent twice at once): one atomic statement, true for the one caller that recorded it.
 */
export async function claimTotpStep(db: UserWriter, userId: number, step: number): Promise<boolean> {
  const claimed = await db.user.updateMany({
    where: { id: userId, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
    data: { totpLastStep: step },
  });
  return claimed.count === 1;
}

/**
 * Closes a patient's portal account at their request (issue 28): login refused from now on (closedAt), every token
 * void (tokenVersion), and the portal's copy of contact data removed (e-mail, phone). RUT and names stay: the audit
 * trail and the payments must still say whose they were, and the clinical record stays with the clinic.
 */
export async function closePortalAccount(db: UserWriter, current: SearchFields & { id: number }, at: Date): Promise<void> {
  await db.user.update({
    where: { id: current.id },
    data: {
      closedAt: at,
      email: "",
      phoneNumber: null,
      tokenVersion: { increment: 1 },
      searchText: userSearchText({ ...pickSearchFields(current), email: "" }),
    },
  });
  announceRowChange("User", current.id);
}
