import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { insertUser, rutOf } from "../helpers/fixtures.ts";

let ctx: TestContext;
let adminToken: string;
const paged: number[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  adminToken = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
  for (let i = 0; i < 23; i++) {
    paged.push(
      await insertUser(ctx.db.prisma, {
        rut: rutOf(33_000_000 + i),
        email: `pagina${i}@correo.cl`,
        roleType: 2,
        firstName: "Paginado",
        lastName: "Prueba",
      }),
    );
  }
  await insertUser(ctx.db.prisma, { rut: rutOf(33_100_000), email: "raro_100%@correo.cl", roleType: 2, firstName: "Comodín" });
});
afterAll(() => ctx.close());

interface ListBody {
  usersList: Array<{ id: number; rut: string; email: string; roleType: number }>;
  page: number;
  total: number;
}
const search = async (query: string) => {
  const response = await ctx.app.inject({
    method: "GET",
    url: api(`/admin/filter/users?clinic=hcs-rcr&${query}`),
    headers: bearer(adminToken),
  });
  return { status: response.statusCode, body: response.json() as ListBody, message: (response.json() as { message?: string }).message };
};
const ruts = (body: ListBody) => body.usersList.map((u) => u.rut);

describe("staff user search", () => {
  it.each([
    ["the RUT with dots", "12.345.678-5"],
    ["the RUT without dots", "12345678-5"],
    ["a fragment of the RUT", "345.678"],
    ["the e-mail in capitals", "PACIENTE@PORTALPACIENTES"],
    ["the first name", "maría"],
    ["the surname with its accent", "González"],
    ["the surname without its accent", "gonzalez"],
  ])("finds the patient by %s", async (_label, param) => {
    const { status, body } = await search(`param=${encodeURIComponent(param)}`);
    expect(status).toBe(200);
    expect(ruts(body)).toContain("12.345.678-5");
    expect(body.total).toBe(body.usersList.length);
  });

  it("matches names without accents or tildes (Muñoz by 'munoz')", async () => {
    const withTilde = await search("param=mu%C3%B1oz&limit=100");
    const without = await search("param=munoz&limit=100");
    expect(withTilde.body.total).toBeGreaterThan(0);
    expect(without.body.total).toBe(withTilde.body.total);
  });

  it("treats % and _ as plain characters", async () => {
    expect((await search("param=%25")).body.usersList.map((u) => u.email)).toEqual(["raro_100%@correo.cl"]);
    expect((await search("param=o_1")).body.usersList.map((u) => u.email)).toEqual(["raro_100%@correo.cl"]);
    expect((await search("param=xyz%25%25")).body.total).toBe(0);
  });

  it("filters by role type, alone and with a search term", async () => {
    const admins = await search("roleType=0");
    expect(admins.body.usersList.every((u) => u.roleType === 0)).toBe(true);
    expect(ruts(admins.body)).toEqual(["11.111.111-1"]);
    expect((await search("roleType=2&param=ejecutivo")).body.total).toBe(0);
    expect(ruts((await search("roleType=1&param=ejecutivo")).body)).toEqual(["22.222.222-2"]);
    expect((await search("roleType=")).body.total).toBe(await ctx.db.prisma.user.count());
  });

  it("pages with limit 10 by default, newest first, and a total of every match", async () => {
    const first = await search("param=paginado");
    expect(first.body).toMatchObject({ page: 1, total: 23 });
    expect(first.body.usersList.map((u) => u.id)).toEqual([...paged].reverse().slice(0, 10));
    const third = await search("param=paginado&page=3&limit=10");
    expect(third.body).toMatchObject({ page: 3, total: 23 });
    expect(third.body.usersList.map((u) => u.id)).toEqual([...paged].reverse().slice(20));
    const beyond = await search("param=paginado&page=4");
    expect(beyond.body).toMatchObject({ usersList: [], page: 4, total: 23 });
    const all = await search("param=paginado&limit=100");
    expect(new Set(all.body.usersList.map((u) => u.id))).toEqual(new Set(paged));
  });

  it("never returns secrets in the list", async () => {
    const { body } = await search("limit=100");
    expect(JSON.stringify(body)).not.toMatch(/passwordHash|argon2|tokenVersion|searchText/);
  });

  it.each([
    ["page=0", "La página debe ser un número entero mayor o igual a 1"],
    ["page=abc", "La página debe ser un número entero mayor o igual a 1"],
    ["page=1.5", "La página debe ser un número entero mayor o igual a 1"],
    ["limit=0", "El límite debe ser un número entero entre 1 y 100"],
    ["limit=101", "El límite debe ser un número entero entre 1 y 100"],
    ["roleType=5", "Tipo de usuario inválido"],
    ["roleType=admin", "Tipo de usuario inválido"],
    [`param=${"a".repeat(101)}`, "La búsqueda no puede superar los 100 caracteres"],
    ["param=a&param=b", "Búsqueda inválida"],
  ])("refuses %s with 400 and a Spanish message", async (query, message) => {
    const { status, message: answer } = await search(query);
    expect(status).toBe(400);
    expect(answer).toBe(message);
  });
});
