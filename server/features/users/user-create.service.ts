import { randomInt } from "node:crypto";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import { resolveClinic, type Clinic } from "../../contract/clinics.ts";
import { Role } from "../../contract/roles.ts";
import { formatRut, normalizeRut } from "../../contract/rut.ts";
import { isUniqueViolation } from "../../db/db-errors.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { AppError } from "../../lib/errors.ts";
import { escapeHtml, type MailMessage } from "../../providers/mail/mail.provider.ts";
import { mailUnavailableMessage } from "../../providers/mail/smtp-mail.client.ts";
import { clinicPortalUrl } from "../../lib/clinic-urls.ts";
import type { UserDetailDto } from "../../contract/users.dto.ts";
import { createUser, deleteUser } from "../../db/users.repository.ts";
import { deny, requireStaffActor } from "../../lib/access.ts";
import { audit } from "../../lib/audit.ts";
import { auditSnapshot, targetUserSelect, toUserDetailDto } from "./users-scope.ts";
import { userMessages, ZCreateUserInput } from "./users.schemas.ts";

export interface CreatedAccount {
  user: UserDetailDto;
  message: string;
}

const lower = "abcdefghijkmnopqrstuvwxyz";
const upper = "ABCDEFGHJKLMNPQRSTUVWXYZ";
const digits = "23456789";

/**
 * A random temporary password of 12 characters (CSPRNG) meeting the SPEC §5 rule: at least one lower-case letter,
 * one upper-case letter and one digit. Look-alike characters (0 O 1 l I) are left out so it can be typed from the mail.
 */
export function temporaryPassword(length = 12): string {
  const all = lower + upper + digits;
  const pick = (set: string) => set[randomInt(set.length)]!;
  const chars = [pick(lower), pick(upper), pick(digits), ...Array.from({ length: length - 3 }, () => pick(all))];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join("");
}

/** The welcome mail with the temporary password and the clinic's own portal address (from configuration). */
export function welcomeMail(
  deps: Pick<AppDeps, "config">,
  clinic: Clinic,
  account: { rut: string; email: string; roleType: number },
  password: string,
): MailMessage {
  const loginPath = account.roleType === Role.patient ? "/login" : "/admin-login";
  const link = `${clinicPortalUrl(deps.config, clinic)}${loginPath}`;
  const rut = formatRut(account.rut);
  const lines = [
    "Hola:",
    `Se creó una cuenta para usted en el Portal Pacientes de ${clinic.title}.`,
    `Rut: ${rut}\nContraseña temporal: ${password}`,
    `Ingrese en ${link}. La primera vez se le pedirá aceptar los términos y condiciones y cambiar esta contraseña por una propia.`,
    "Si usted no esperaba este correo, ignórelo o comuníquese con la clínica.",
  ];
  return {
    to: account.email,
    subject: `${clinic.title} - Su cuenta en el Portal Pacientes`,
    text: lines.join("\n\n"),
    html: [
      `<p>Hola:</p>`,
      `<p>Se creó una cuenta para usted en el Portal Pacientes de ${escapeHtml(clinic.title)}.</p>`,
      `<p>Rut: <strong>${escapeHtml(rut)}</strong><br>Contraseña temporal: <strong>${escapeHtml(password)}</strong></p>`,
      `<p><a href="${escapeHtml(link)}">Ingresar al portal</a>. La primera vez se le pedirá aceptar los términos y condiciones y cambiar esta contraseña por una propia.</p>`,
      `<p>Si usted no esperaba este correo, ignórelo o comuníquese con la clínica.</p>`,
    ].join(""),
  };
}

/**
 * POST /admin: creates an account with a random temporary password and e-mails it with the clinic's portal link
 * (the clinic comes from rcrLink). The account starts with hasChangedPassword false and no dateTyc, so the first
 * login asks for the terms and a new password. A patient is registered with that clinic.
 * If the mail cannot be sent the account is deleted again and the mail provider's error (PROVIDER_UNAVAILABLE / PROVIDER_TIMEOUT) is thrown: no account exists whose
 * password nobody knows, and staff can simply retry.
 * Throws BAD_REQUEST (invalid RUT / e-mail / role), CONFLICT (RUT already registered; nothing changes, no mail),
 * FORBIDDEN (patients; executives creating staff or creating at a clinic they hold no privilege for).
 */
export async function createUserAccount(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<CreatedAccount> {
  const action = "user.create";
  const actor = await requireStaffActor(deps, user, meta, action);
  const { rut: rawRut, email, roleType, rcrLink } = parseInput(ZCreateUserInput, input);
  const rut = normalizeRut(rawRut);
  const clinic = resolveClinic(rcrLink ?? "");
  const attempt = { rut: formatRut(rut), email, roleType, clinic: clinic.key };
  if (!actor.isAdmin && roleType !== Role.patient)
    await deny(deps, user, meta, { action, after: attempt }, userMessages.onlyAdminCreatesStaff);
  if (!actor.isAdmin && !actor.clinics.includes(clinic.key))
    await deny(deps, user, meta, { action, after: attempt }, userMessages.clinicNotAllowed(clinic.title));

  const conflict = async (): Promise<never> => {
    await audit(deps, user, meta, { action, after: attempt, outcome: "failed" });
    throw new AppError("CONFLICT", userMessages.duplicateRut(formatRut(rut)));
  };
  if (await deps.prisma.user.findUnique({ where: { rut }, select: { id: true } })) await conflict();

  const password = temporaryPassword();
  let created;
  try {
    created = await createUser(
      deps.prisma,
      { rut, email, roleType, password, patientClinics: roleType === Role.patient ? [clinic.key] : undefined },
      targetUserSelect,
    );
  } catch (error) {
    if (isUniqueViolation(error)) await conflict(); // a concurrent creation of the same RUT won the race
    throw error;
  }

  try {
    await deps.providers.mail.send(welcomeMail(deps, clinic, created, password));
  } catch (error) {
    await deleteUser(deps.prisma, created.id);
    await audit(deps, user, meta, { action, after: attempt, outcome: "failed" });
    throw error instanceof AppError ? error : new AppError("PROVIDER_UNAVAILABLE", mailUnavailableMessage, { cause: error });
  }

  const detail = toUserDetailDto(created);
  await audit(deps, user, meta, { action, target: created, after: { ...auditSnapshot(detail), clinic: clinic.key } });
  return { user: detail, message: userMessages.created };
}
