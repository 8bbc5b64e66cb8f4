import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client.ts";

// Least privilege on PostgreSQL (issue 34): the migrations run as the role that owns the database and its tables; the
// portal's replicas connect as an application role with data rights only. Not owning a table, the application role
// cannot ALTER it (so neither DISABLE nor DROP the audit trail's append-only trigger), create or drop anything; on the
// audit table it may only read and add rows, and the migration history it may only read (the readiness check).
// deploy/postgres/initdb/10-roles.sh creates both roles on a new compose volume; docs/operacion.md, "Privilegios mínimos".

/** A PostgreSQL role name the grants can quote safely (lower case, as unquoted names fold to). */
export const ZAppRole = z
  .string()
  .regex(/^[a-z_][a-z0-9_]{0,62}$/, { error: "DATABASE_APP_ROLE debe ser un nombre de rol de PostgreSQL en minúsculas (a-z, 0-9, _)" });

/**
 * Gives `role` what the portal needs on every table the migrations made, and no more. Run by the owner after each
 * migration (dist/cli/migrate.js with DATABASE_APP_ROLE): tables added later get the same, idempotently.
 */
export async function grantAppRole(prisma: PrismaClient, role: string): Promise<void> {
  const name = `"${ZAppRole.parse(role)}"`;
  const statements = [
    `GRANT CONNECT, TEMPORARY ON DATABASE "${await currentDatabase(prisma)}" TO ${name}`,
    `GRANT USAGE ON SCHEMA public TO ${name}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${name}`,
    `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${name}`,
    `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO ${name}`,
    // Append-only for the application too: the trigger refuses UPDATE/DELETE/TRUNCATE for everyone, and the
    // privileges say it once more, for this role, where no trigger can be forgotten.
    `REVOKE UPDATE, DELETE, TRUNCATE ON "AuditEvent" FROM ${name}`,
    `REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON "_prisma_migrations" FROM ${name}`,
  ];
  await prisma.$transaction(statements.map((statement) => prisma.$executeRawUnsafe(statement)));
}

async function currentDatabase(prisma: PrismaClient): Promise<string> {
  const [row] = await prisma.$queryRaw<Array<{ name: string }>>`SELECT current_database() AS name`;
  return row!.name.replaceAll('"', '""');
}
