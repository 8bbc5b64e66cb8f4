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
