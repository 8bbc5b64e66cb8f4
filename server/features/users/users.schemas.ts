import { z } from "zod";
import {
  adminEditEmailSchema,
  birthDateSchema,
  createUserSchema,
  messages,
  optionalNameSchema,
  personNameSchema,
  phoneSchema,
  roleTypeSchema,
  rutSchema,
} from "../../contract/validation.ts";
import { clinicParam, paramMessages, pagingShape } from "../../contract/params.ts";

// Input schemas of the staff user administration, shared by the REST routes, the tRPC router and the services.
// REST query strings arrive as text, so numbers are coerced here; z.object strips every key not named.

export const userMessages = {
  notFound: "Usuario no encontrado",
  invalidId: "Identificador de usuario inválido",
  invalidPage: paramMessages.invalidPage,
  invalidLimit: paramMessages.invalidLimit,
  searchTooLong: "La búsqueda no puede superar los 100 caracteres",
  invalidSearch: "Búsqueda inválida",
  invalidRole: "Tipo de usuario inválido",
  duplicateRut: (rut: string) => `Ya existe una cuenta con el Rut ${rut}`,
  created: "Cuenta creada",
  ownRole: "No puede cambiar su propio tipo de usuario",
  onlyAdminCreatesStaff: "Solo un administrador puede crear cuentas de administrador o ejecutivo",
  onlyAdminChangesRole: "Solo un administrador puede cambiar el tipo de usuario",
  onlyAdminEditsStaff: "Solo un administrador puede modificar a un administrador o ejecutivo",
  onlyAdminPrivileges: "Solo un administrador puede modificar los privilegios",
  clinicNotAllowed: (title: string) => `No tiene privilegios sobre la clínica ${title}`,
  privilegesOnlyExecutives: "Solo los ejecutivos pueden tener clínicas asignadas",
  unknownClinic: (code: string) => `Clínica desconocida: ${code}`,
  privilegeUserMismatch: "Los privilegios deben ser del mismo usuario indicado en id_user",
  invalidPrivileges: "Lista de privilegios inválida",
  invalidClinic: paramMessages.invalidClinic,
  invalidBody: "Datos inválidos",
} as const;

const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);
const blankToNull = (value: unknown) => (typeof value === "string" && value.trim() === "" ? null : value);

// Only the canonical decimal form is a number here: "0x10", "+1", "01", " 1", "1\n" or "1e1" once became ids (issue 9).
const canonicalPositiveInt = /^[1-9][0-9]{0,9}$/;
const positiveInt = (message: string, max = 2_147_483_647) =>
  z.preprocess(
    (value) => (typeof value === "string" && canonicalPositiveInt.test(value) ? Number(value) : value),
    z.number({ error: message }).int({ error: message }).min(1, { error: message }).max(max, { error: message }),
  );

/** Role type from a JSON number or a query-string digit. */
const roleTypeInput = z.preprocess(
  (value) => (typeof value === "string" && /^[012]$/.test(value.trim()) ? Number(value) : value),
  roleTypeSchema,
);

export const ZUserId = z.preprocess(blankToUndefined, positiveInt(userMessages.invalidId));

/** GET /admin/filter/users: clinic (the site's clinic, accepted but not a filter), limit, page, param, roleType. */
export const ZListUsersInput = z.object(
  {
    param: z.string({ error: userMessages.invalidSearch }).trim().max(100, { error: userMessages.searchTooLong }).optional(),
    roleType: z.preprocess(blankToUndefined, roleTypeInput.optional()),
    ...pagingShape,
    clinic: clinicParam,
  },
  { error: userMessages.invalidBody },
);

/** A personal-data field staff may leave empty (stored as null) or fill with a valid value. */
const clearable = <S extends z.ZodType<string, string>>(schema: S, typeMessage: string) =>
  z.preprocess(blankToNull, z.string({ error: typeMessage }).pipe(schema).nullable()).optional();

/**
 * PATCH /admin/:id (staff edit). Every field is optional: a missing field is left as it is. Names, phone and birth
 * date may be emptied (stored as null: a first-login patient has none yet); the e-mail may not. The RUT, id, password,
 * hasChangedPassword and terms date are not editable here and are dropped.
 */
export const ZUpdateUserInput = z.object(
  {
    firstName: clearable(personNameSchema, messages.name),
    secondName: clearable(optionalNameSchema, messages.name),
    lastName: clearable(personNameSchema, messages.name),
    secondLastName: clearable(personNameSchema, messages.name),
    email: adminEditEmailSchema.optional(),
    phoneNumber: clearable(phoneSchema, messages.phone),
    birthDate: z.preprocess(blankToNull, z.string({ error: messages.birthDate }).pipe(birthDateSchema).nullable()).optional(),
    roleType: roleTypeInput.optional(),
  },
  { error: userMessages.invalidBody },
);

/** POST /admin: rut, email ('La dirección de correo es incorrecta'), roleType (default 2), rcrLink (the clinic's portal URL). */
export const ZCreateUserInput = z.object(createUserSchema.shape, { error: userMessages.invalidBody });

/** POST /admin/resetPassword: the target's rut and the new password pair; oldPassword is sent by the web app and ignored. */
export const ZStaffResetPasswordInput = z.object(
  {
    rut: rutSchema,
    oldPassword: z.unknown().optional().describe("Se ignora: el personal fija la contraseña sin conocer la anterior"),
    password: z.unknown(),
    passwordConfirmation: z.unknown(),
  },
  { error: userMessages.invalidBody },
);

const ZPrivilegeItem = z.object(
  {
    codeClinicStr: z
      .string({ error: userMessages.invalidPrivileges })
      .trim()
      .min(1, { error: userMessages.invalidPrivileges })
      .max(60, { error: userMessages.invalidPrivileges }),
    id_permission: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ error: userMessages.invalidPrivileges })
        .int({ error: userMessages.invalidPrivileges })
        .min(0, { error: userMessages.invalidPrivileges })
        .max(2, { error: userMessages.invalidPrivileges })
        .optional(),
    ),
    id_user: z.preprocess(blankToUndefined, positiveInt(userMessages.invalidId).optional()),
  },
  { error: userMessages.invalidPrivileges },
);

/** POST /admin/privileges-array?id_user=: the executive's complete new list of clinics (an empty list removes them all). */
export const ZSetPrivilegesInput = z.object({
  userId: ZUserId,
  privileges: z.array(ZPrivilegeItem, { error: userMessages.invalidPrivileges }).max(50, { error: userMessages.invalidPrivileges }),
});
