import { readFileSync } from "node:fs";
import path from "node:path";
import { constants } from "node:zlib";
import fastifyCompress from "@fastify/compress";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

// The built web app and the compression of answers.
// - Hashed files under /assets/ never change under their name: browsers keep them a year without asking again.
// - Other files (favicon, logos) may change under the same name: a day.
// - index.html (the SPA fallback, sent by the not-found handler) is revalidated on every visit, so a release is
//   picked up at once.
// - The build writes .br and .gz beside every text asset (vite-plugin-compression2); they are sent as they are.
// - API answers above 1 KB are compressed per request (brotli at a fast quality, or gzip), never the small ones.

// Vite writes only content-hashed names under assets/ (and their .br/.gz beside them).
const hashedAsset = /[\\/]assets[\\/][^\\/]+$/;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ["br", "gzip"],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}

export async function registerWebAssets(app: FastifyInstance, webDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: webDir,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders(res, filePath) {
      if (filePath.endsWith("index.html")) res.setHeader("Cache-Control", "no-cache");
      else if (hashedAsset.test(filePath)) res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      else res.setHeader("Cache-Control", "public, max-age=86400");
    },
  });
}

/** Pages the web's public shell draws without the signed-in app (web/src/public/PublicShell.tsx, publicPagePath). */
const publicPages = new Set(["/", "/login", "/admin-login", "/recover-password"]);

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

/**
 * The `Link` header that starts downloading the signed-in app's modules (app/App.tsx and what it imports, minus what
 * the entry already loads) together with index.html, for every page but the public ones. The first load of a
 * signed-in page otherwise learns of them only after the entry runs: one more round trip before anything shows.
 * Null without a build manifest.
 */
export function appPreloadHeader(webDir: string): string | null {
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(readFileSync(path.join(webDir, ".vite", "manifest.json"), "utf8")) as Record<string, ManifestChunk>;
  } catch {
    return null;
  }
  const closure = (key: string, into = new Set<string>()) => {
    const chunk = manifest[key];
    if (!chunk || into.has(key)) return into;
    into.add(key);
    for (const imported of chunk.imports ?? []) closure(imported, into);
    return into;
  };
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  const app = Object.keys(manifest).find((key) => key.endsWith("src/app/App.tsx"));
  if (!entry || !app) return null;
  const loaded = closure(entry);
  const files = [...closure(app)].filter((key) => !loaded.has(key)).map((key) => `/${manifest[key]!.file}`);
  return files.length ? files.map((file) => `<${file}>; rel=modulepreload`).join(", ") : null;
}

/** The index.html answer of a page address: revalidated on every visit, with the app's preload for signed-in pages. */
export function indexHtmlHeaders(preload: string | null, url: string): Record<string, string> {
  const pathname = url.split("?")[0]!.replace(/\/+$/, "") || "/";
  return preload && !publicPages.has(pathname) ? { "Cache-Control": "no-cache", Link: preload } : { "Cache-Control": "no-cache" };
}
