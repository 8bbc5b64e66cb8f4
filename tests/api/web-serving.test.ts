import { existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// How the built web app and API answers travel: precompressed hashed assets cached for a year, index.html revalidated
// on every visit, API JSON compressed above 1 KB.

let ctx: TestContext;
let asset: string;
let entry: string;

beforeAll(async () => {
  if (!existsSync("dist/web/index.html") || !existsSync("dist/web/index.html.br")) {
    // As npm test and npm start build it: vitest runs with NODE_ENV=test, which would give React's development build.
    execFileSync("npx", ["vite", "build", "--config", "web/vite.config.ts", "--logLevel", "warn"], {
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
  }
  ctx = await createTestContext({ WEB_DIST_DIR: "dist/web" });
  const html = (await ctx.app.inject({ method: "GET", url: "/login" })).body;
  entry = /src="(\/assets\/index-[^"]+\.js)"/.exec(html)![1]!;
  // A large one (React), where compression shows: the entry itself is a few hundred bytes.
  asset = /href="(\/assets\/react-[^"]+\.js)"/.exec(html)![1]!;
}, 180_000);
afterAll(() => ctx.close());

describe("serving the web app", () => {
  it("sends a hashed asset as brotli, gzip or plain as the browser accepts, cached for a year as immutable", async () => {
    const plain = await ctx.app.inject({ method: "GET", url: asset });
    const br = await ctx.app.inject({ method: "GET", url: asset, headers: { "accept-encoding": "br, gzip" } });
    const gz = await ctx.app.inject({ method: "GET", url: asset, headers: { "accept-encoding": "gzip" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    for (const response of [plain, br, gz]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(response.headers["content-type"]).toMatch(/javascript/);
    }
  });

  it("announces the signed-in app's modules for preloading on a signed-in page, never on the public pages", async () => {
    const signedIn = await ctx.app.inject({ method: "GET", url: "/dashboard/my-bills" });
    const links = [...String(signedIn.headers.link ?? "").matchAll(/<(\/assets\/[^>]+\.js)>; rel=modulepreload/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect((await ctx.app.inject({ method: "GET", url: link })).statusCode).toBe(200);
    // What the page loads anyway (its entry, React) is not announced again.
    expect(links).not.toContain(entry);
    expect(links).not.toContain(asset);
    for (const url of ["/", "/login", "/admin-login", "/recover-password?x=1"]) {
      expect((await ctx.app.inject({ method: "GET", url })).headers.link, url).toBeUndefined();
    }
  });

  it("revalidates index.html on every visit (a release is picked up at once), compressed too", async () => {
    for (const url of ["/login", "/dashboard/my-bills"]) {
      const response = await ctx.app.inject({ method: "GET", url, headers: { "accept-encoding": "br" } });
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("no-cache");
      expect(response.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(response.rawPayload).toString()).toContain('<div id="root">');
    }
  });

  it("compresses a large API answer and leaves a small one alone, still never cached", async () => {
    const token = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const large = await ctx.app.inject({
      method: "GET",
      url: api("/admin/filter/users?page=1&limit=50"),
      headers: { authorization: `Bearer ${token}`, "accept-encoding": "br, gzip" },
    });
    expect(large.statusCode).toBe(200);
    expect(large.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(large.rawPayload).toString()).usersList.length).toBeGreaterThan(5);
    expect(large.headers["cache-control"]).toBe("no-store");
    const small = await ctx.app.inject({ method: "GET", url: "/healthz", headers: { "accept-encoding": "br, gzip" } });
    expect(small.statusCode).toBe(200);
    expect(small.headers["content-encoding"]).toBeUndefined();
  });
});
