import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerErrorHandler } from "./error-handler.ts";
import { JSON_BODY_LIMIT, readSingleFile, registerMultipart } from "./uploads.ts";

const app = Fastify({ bodyLimit: JSON_BODY_LIMIT });
beforeAll(async () => {
  registerErrorHandler(app);
  await registerMultipart(app);
  app.post("/subir", async (request) => {
    const file = await readSingleFile(request, { maxFileBytes: 1024 });
    return { filename: file.filename, size: file.data.length, fields: file.fields };
  });
  app.post("/json", async () => ({ ok: true }));
  await app.ready();
});
afterAll(() => app.close());

function multipart(fileBytes: number): { payload: Buffer; headers: Record<string, string> } {
  const boundary = "----limite";
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="billId"\r\n\r\n42\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cuenta.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    Buffer.alloc(fileBytes, 0x25),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

describe("request size limits", () => {
  it("reads a file within the route's own limit, with the fields sent before it", async () => {
    const response = await app.inject({ method: "POST", url: "/subir", ...multipart(1000) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ filename: "cuenta.pdf", size: 1000, fields: { billId: "42" } });
  });

  it("refuses a file over the route's limit with 413 and a Spanish message naming the limit", async () => {
    const response = await app.inject({ method: "POST", url: "/subir", ...multipart(2000) });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe("El archivo supera el tamaño máximo permitido de 1KB");
  });

  it("refuses a non-multipart request to an upload route with 400", async () => {
    const response = await app.inject({ method: "POST", url: "/subir", payload: { a: 1 } });
    expect(response.statusCode).toBe(400);
  });

  it("refuses a malformed multipart body with 400, not 500", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/subir",
      headers: { "content-type": "multipart/form-data; boundary=x" },
      payload: JSON.stringify({ a: 1 }),
    });
    expect(response.statusCode).toBe(400);
  });

  it("keeps JSON bodies to the small app-wide limit", async () => {
    const response = await app.inject({ method: "POST", url: "/json", payload: { text: "x".repeat(JSON_BODY_LIMIT) } });
    expect(response.statusCode).toBe(413);
  });
});
