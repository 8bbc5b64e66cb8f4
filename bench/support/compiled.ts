import { build } from "esbuild";
import { buildServer, compileOptions } from "../../scripts/build-server.mjs";

/**
 * The bench measures what a clinic runs: the portal and the mock providers compiled as the image compiles them
 * (`npm run build:server`, dist/server/main.js), and its own bare and floor servers compiled the same way, so the
 * comparison stays even. Through tsx every function expression a request creates also went through esbuild's
 * `__name` (keepNames: one Object.defineProperty per closure), a cost production does not have and that fell mostly on
 * tRPC, whose path creates more closures per request (1-12-2026: 0.26 % of the portal's CPU in a profile of
 * validate-token, two thirds of it in the tRPC context and handler).
 */
export async function compileMeasuredServers(): Promise<{ portal: string; mocks: string; floor: string; bare: string }> {
  await buildServer("dist");
  await build({
    ...compileOptions,
    entryPoints: { "bench/floor-server": "bench/support/floor-server.ts", "bench/bare-server": "bench/support/bare-server.ts" },
    outdir: "dist",
  });
  return {
    portal: "dist/server/main.js",
    mocks: "dist/mocks/start.js",
    floor: "dist/bench/floor-server.js",
    bare: "dist/bench/bare-server.js",
  };
}
