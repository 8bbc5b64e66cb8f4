import { parseArgs } from "node:util";
import { endOtherSessions } from "../../lib/sessions.ts";
import { z } from "zod";
import { loadConfig } from "../../config.ts";
import { roleLabels, Role, type RoleType } from "../../contract/roles.ts";
import { formatRut, normalizeRut } from "../../contract/rut.ts";
import { emailSchema, firstIssueMessage, messages, newPasswordSchema, roleTypeSchema, rutSchema } from "../../contract/validation.ts";
import { databaseTargetFromEnv, openDatabase } from "../../db/database.ts";
import { applyMigrations } from "../../db/migrate.ts";
import { seedClinics } from "../../db/seed.ts";
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { recordAudit } from "../../lib/audit.ts";
import { isCommonPassword } from "../../lib/passwords.ts";
import { createUser, resetAccount } from "../../db/users.repository.ts";

// npm run user:create -- --rut <rut> --email <email> --role <0|1|2> --password <pw>
// The operator's way to create the first admin (or to regain access): creates the account, or resets an existing one
// with that RUT. Either way it starts like any new account: terms not accepted and a password to change at first login.

export const usage = "Uso: npm run user:create -- --rut <rut> --email <correo> --role <0|1|2> --password <contraseña>";

export const ZUserCreateArgs = z.object({
  rut: rutSchema,
  email: emailSchema,
  role: z.preprocess((v) => (typeof v === "string" && /^\s*[012]\s*$/.test(v) ? Number(v) : v), roleTypeSchema),
  password: newPasswordSchema.refine((pw) => !isCommonPassword(pw), { error: messages.commonPassword }),
});
export type UserCreateArgs = z.output<typeof ZUserCreateArgs>;

export interface CommandResult {
  exitCode: 0 | 1;
  /** Lines for the operator (Spanish); never the password. */
  lines: string[];
}

/** Creates the account, or resets the one with that RUT (e-mail, role, password; privileges go unless it stays an executive). */
export async function createOrResetAccount(prisma: PrismaClient, args: UserCreateArgs): Promise<{ id: number; created: boolean }> {
  const rut = normalizeRut(args.rut);
  const existing = await prisma.user.findUnique({
    where: { rut },
    select: { id: true, firstName: true, secondName: true, lastName: true, secondLastName: true },
  });
  if (!existing) {
    const user = await createUser(prisma, { rut, email: args.email, roleType: args.role, password: args.password }, { id: true });
    await recordAudit(prisma, {
      action: "user.create.cli",
      resource: "user",
      resourceId: user.id,
      after: { rut: formatRut(rut), email: args.email, roleType: args.role },
    });
    return { id: user.id, created: true };
  }
  await prisma.$transaction(async (tx) => {
    if (args.role !== Role.executive) await tx.privilege.deleteMany({ where: { userId: existing.id } });
    await resetAccount(tx, { rut, email: args.email, ...existing }, { email: args.email, roleType: args.role, password: args.password });
    await endOtherSessions(tx, existing.id, "password");
  });
  await recordAudit(prisma, {
    action: "user.reset.cli",
    resource: "user",
    resourceId: existing.id,
    after: { rut: formatRut(rut), email: args.email, roleType: args.role },
  });
  return { id: existing.id, created: false };
}

function parseCommandLine(argv: string[]): { values: Record<string, unknown> } | { error: string } {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { rut: { type: "string" }, email: { type: "string" }, role: { type: "string" }, password: { type: "string" } },
      strict: true,
      allowPositionals: false,
    });
    const missing = (["rut", "email", "role", "password"] as const).filter((name) => values[name] === undefined);
    if (missing.length) return { error: `Faltan argumentos: ${missing.map((m) => `--${m}`).join(", ")}` };
    return { values };
  } catch (error) {
    return { error: `Argumentos inválidos: ${(error as Error).message}` };
  }
}

/**
 * The whole command: validates the arguments (Spanish messages, exit code 1), then opens the configured database
 * (DATABASE_URL or PGLITE_DIR), applies pending migrations, syncs the clinic catalogue and creates or resets the account.
 */
export async function runUserCreate(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<CommandResult> {
  const parsed = parseCommandLine(argv);
  if ("error" in parsed) return { exitCode: 1, lines: [parsed.error, usage] };
  const args = ZUserCreateArgs.safeParse(parsed.values);
  if (!args.success) {
    const issue = args.error.issues[0];
    return { exitCode: 1, lines: [`--${String(issue?.path[0] ?? "")}: ${firstIssueMessage(args.error)}`, usage] };
  }

  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    return { exitCode: 1, lines: [(error as Error).message] };
  }
  const target = databaseTargetFromEnv(config.DATABASE_URL, config.PGLITE_DIR, config.PGLITE_PORT);
  // Embedded database: through the running portal when it owns the folder; fails before writing when unreachable.
  const db = await openDatabase(target, { ownerWaitMs: config.PGLITE_OWNER_WAIT_SECONDS * 1000 });
  try {
    await applyMigrations(db);
    await seedClinics(db.prisma);
    const { id, created } = await createOrResetAccount(db.prisma, args.data);
    const where = target.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite en ${target.dataDir}`;
    const role = roleLabels[args.data.role as RoleType];
    return {
      exitCode: 0,
      lines: [
        `${created ? "Cuenta creada" : "Cuenta existente restablecida"}: Rut ${formatRut(args.data.rut)}, ${role} (roleType ${args.data.role}), correo ${args.data.email}, id ${id}.`,
        "Al primer ingreso deberá aceptar los términos y condiciones y cambiar la contraseña.",
        `Base de datos: ${where}.`,
      ],
    };
  } finally {
    await db.close();
  }
}
