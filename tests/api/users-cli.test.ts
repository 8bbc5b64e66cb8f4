import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp, API_PREFIX } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase, type Database } from "../../server/db/database.ts";
import { runUserCreate } from "../../server/features/users/user-create.command.ts";
import { verifyPassword } from "../../server/lib/passwords.ts";

// npm run user:create runs runUserCreate(process.argv, process.env); here it runs against a fresh PGlite folder.

const dataDir = mkdtempSync(path.join(tmpdir(), "pp-user-create-"));
const env = { NODE_ENV: "test", PGLITE_DIR: dataDir, PGLITE_PORT: "0", LOG_LEVEL: "silent" } as NodeJS.ProcessEnv;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase({ kind: "pglite", dataDir, port: 0 });
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

const args = (rut: string, email: string, role: string, password: string) => [
  "--rut",
  rut,
  "--email",
  email,
  "--role",
  role,
  "--password",
  password,
];

describe("user:create command", () => {
  it("creates an admin on an empty database that must accept the terms and change the password, and can log in", async () => {
    const result = await runUserCreate(args("9.876.543-3", "operador@clinica.cl", "0", "Operador2026"), env);
    expect(result.exitCode).toBe(0);
    expect(result.lines[0]).toBe("Cuenta creada: Rut 9.876.543-3, Administrador (roleType 0), correo operador@clinica.cl, id 1.");
    expect(result.lines.join("\n")).not.toContain("Operador2026");

    await withDatabase(async (db) => {
      expect(await db.prisma.clinic.count()).toBe(7);
      const user = await db.prisma.user.findUniqueOrThrow({ where: { rut: "9876543-3" } });
      expect(user).toMatchObject({ roleType: 0, email: "operador@clinica.cl", hasChangedPassword: false, dateTyc: null });
      expect(user.passwordHash).toMatch(/^\$argon2id\$/);
      expect(user.searchText).toContain("9.876.543-3");
      const app = await buildApp({
        config: loadConfig(env),
        db,
        providers: { mail: { send: async () => {}, close: () => {} } },
        logger: false,
      });
      const login = await app.inject({
        method: "POST",
        url: `${API_PREFIX}/auth/admin-login`,
        payload: { rut: "9876543-3", password: "Operador2026" },
      });
      await app.close();
      expect(login.statusCode).toBe(200);
      expect(login.json().payload.user).toMatchObject({ roleType: 0, hasChangedPassword: false, dateTyc: null });
    });
  });

  it("resets an existing account: new password and role, earlier sessions end, privileges go with the executive role", async () => {
    await withDatabase(async (db) => {
      const user = await db.prisma.user.update({
        where: { rut: "9876543-3" },
        data: {
          roleType: 1,
          hasChangedPassword: true,
          dateTyc: new Date(),
          privileges: { create: [{ codeClinicStr: "hcs-rcr", idPermission: 1 }] },
          // A second factor whose phone is lost: the operator's reset is the way back in (issue 27).
          totpSecret: "PORTALADMINDEMOTOTPSECRETKEYAAAA",
          totpEnabledAt: new Date(),
        },
      });
      expect(user.tokenVersion).toBe(0);
    });
    const result = await runUserCreate(args("9876543-3", "nuevo.operador@clinica.cl", "2", "Operador2027"), env);
    expect(result.exitCode).toBe(0);
    expect(result.lines[0]).toContain("Cuenta existente restablecida: Rut 9.876.543-3, Paciente (roleType 2)");
    await withDatabase(async (db) => {
      const user = await db.prisma.user.findUniqueOrThrow({ where: { rut: "9876543-3" }, include: { privileges: true } });
      expect(user).toMatchObject({
        roleType: 2,
        email: "nuevo.operador@clinica.cl",
        hasChangedPassword: false,
        dateTyc: null,
        tokenVersion: 1,
        privileges: [],
        totpSecret: null,
        totpEnabledAt: null,
      });
      expect(await verifyPassword(user.passwordHash, "Operador2027")).toBe(true);
      expect(await verifyPassword(user.passwordHash, "Operador2026")).toBe(false);
      expect(await db.prisma.user.count()).toBe(1);
      expect(await db.prisma.auditEvent.count({ where: { action: { in: ["user.create.cli", "user.reset.cli"] } } })).toBe(2);
    });
  });

  it.each([
    ["an invalid RUT", args("12.345.678-9", "a@b.cl", "0", "Operador2026"), "--rut: Rut inválido"],
    ["an invalid e-mail", args("12.345.678-5", "a@b", "0", "Operador2026"), "--email: Correo electrónico inválido"],
    ["an unknown role", args("12.345.678-5", "a@b.cl", "3", "Operador2026"), "--role: Tipo de usuario inválido"],
    [
      "a weak password",
      args("12.345.678-5", "a@b.cl", "0", "operador"),
      "--password: El password debe tener al menos 8 caracteres, una letra minúscula, una letra mayúscula y un número",
    ],
    ["a common password", args("12.345.678-5", "a@b.cl", "0", "Password1"), "--password: La contraseña es demasiado común, elija otra"],
    ["missing arguments", ["--rut", "12.345.678-5"], "Faltan argumentos: --email, --role, --password"],
  ])("refuses %s with exit code 1 and a Spanish message, touching nothing", async (_label, argv, message) => {
    const result = await runUserCreate(argv, env);
    expect(result.exitCode).toBe(1);
    expect(result.lines[0]).toBe(message);
    expect(result.lines[1]).toMatch(/^Uso: npm run user:create/);
    await withDatabase(async (db) => expect(await db.prisma.user.count({ where: { rut: "12345678-5" } })).toBe(0));
  });

  it("refuses an unknown option", async () => {
    const result = await runUserCreate([...args("12.345.678-5", "a@b.cl", "0", "Operador2026"), "--admin"], env);
    expect(result.exitCode).toBe(1);
    expect(result.lines[0]).toMatch(/^Argumentos inválidos/);
  });
});
