import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// Issue 42, point 5: tRPC's streamed answers (JSONL batches) went out with both Content-Length and Transfer-Encoding
// and a JSON content type. Node's own client refuses such an answer, and a proxy that trusts the length can read the
// rest of the stream as the next response on a reused connection. Checked over a real socket: inject() parses no HTTP.

let ctx: TestContext;
let port: number;
beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(() => ctx.close());

const batchInput = encodeURIComponent(JSON.stringify({ 1: { clinic: "maitenes" } }));
const streamedBatch = `/trpc/auth.validateToken,clinics.settings?batch=1&input=${batchInput}`;

/** The raw head of the answer, as a proxy reads it off the connection. */
function rawHead(path: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
      const end = received.indexOf("\r\n\r\n");
      if (end >= 0) {
        socket.destroy();
        resolve(received.slice(0, end));
      }
    });
    socket.on("error", reject);
    const lines = Object.entries({ host: `127.0.0.1:${port}`, connection: "close", ...headers }).map(
      ([name, value]) => `${name}: ${value}`,
    );
    socket.write(`GET ${path} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`);
  });
}

/** The answer through Node's own HTTP client, which refuses a message framed two ways. */
function nodeGet(path: string, headers: Record<string, string>): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: "127.0.0.1", port, path, headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, type: response.headers["content-type"], body }));
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("tRPC answers over HTTP/1.1", () => {
  it("frames a streamed batch one way only: chunked, without Content-Length, typed as JSON lines", async () => {
    const head = (await rawHead(streamedBatch, { "trpc-accept": "application/jsonl" })).toLowerCase();
    expect(head).toMatch(/^http\/1\.1 200/);
    expect(head).toMatch(/\r\ntransfer-encoding: chunked(\r\n|$)/);
    expect(head).not.toMatch(/\r\ncontent-length:/);
    expect(head).toMatch(/\r\ncontent-type: application\/jsonl/);
  });

  it("is read by Node's own client, line by line, with every call of the batch answered", async () => {
    const answer = await nodeGet(streamedBatch, { "trpc-accept": "application/jsonl" });
    expect(answer.status).toBe(200);
    expect(answer.type).toMatch(/^application\/jsonl/);
    const lines = answer.body
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(answer.body).toContain("maitenes");
  });

  it("frames a plain batch and a single call by their length, as JSON", async () => {
    for (const path of [streamedBatch, `/trpc/clinics.settings?input=${encodeURIComponent(JSON.stringify({ clinic: "maitenes" }))}`]) {
      const head = (await rawHead(path, {})).toLowerCase();
      expect(head, path).toMatch(/\r\ncontent-length: \d+/);
      expect(head, path).not.toMatch(/\r\ntransfer-encoding:/);
      expect(head, path).toMatch(/\r\ncontent-type: application\/json/);
      expect((await nodeGet(path, {})).status, path).toBe(200);
    }
  });

  it("keeps one connection usable after a streamed answer (no bytes left over for the next response)", async () => {
    const token = await ctx.login(demo.patient.rut, demo.patient.password);
    const answers = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1");
      let received = "";
      socket.setEncoding("latin1");
      socket.on("data", (chunk: string) => (received += chunk));
      socket.on("end", () => resolve(received));
      socket.on("error", reject);
      const common = `host: 127.0.0.1:${port}\r\nauthorization: Bearer ${token}\r\n`;
      socket.write(`GET ${streamedBatch} HTTP/1.1\r\n${common}trpc-accept: application/jsonl\r\n\r\n`);
      socket.write(`GET /trpc/auth.validateToken HTTP/1.1\r\n${common}connection: close\r\n\r\n`);
    });
    const statusLines = answers.match(/HTTP\/1\.1 \d{3}/g);
    expect(statusLines).toEqual(["HTTP/1.1 200", "HTTP/1.1 200"]);
    expect(answers.endsWith('{"result":{"data":true}}')).toBe(true);
  });
});
