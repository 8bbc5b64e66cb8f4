import path from "node:path";

// The import boundaries of the project (README "Layout"), checked on every import by resolving its path:
// - web: a feature never imports another feature nor app/; lib/ and components/ import no feature and no app/; the only
//   doors into the server are @contract/* and a type-only import of @server-router (the AppRouter type).
// - server: a feature imports only contract/, lib/, db/, providers/, http/, trpc/ (plus deps.ts, config.ts and the
//   generated Prisma client) and its own folder; contract/ imports nothing of the server but itself (the web bundles it);
//   lib/, db/, providers/ and http/ import no feature.

const root = process.cwd();
const serverLayers = ["contract", "lib", "db", "providers", "http", "trpc", "generated"];
const serverFiles = ["deps.ts", "config.ts"];

const segments = (file) => file.split(path.sep).join("/").split("/");

/** Why `file` may not import `target` (both relative to the repository root), or null when it may. */
export function boundaryViolation(file, target, { viaAlias, typeOnly }) {
  const [fileTop, fileArea, fileDir, fileName] = segments(file);
  const [top, area, dir] = segments(target);

  if (fileTop === "web") {
    if (top === "server") {
      const isRouter = target === "server/trpc/router.ts";
      if (!(area === "contract" || isRouter)) return "la web solo importa del servidor @contract/* y el tipo AppRouter (@server-router)";
      if (!viaAlias) return `importe ${isRouter ? "@server-router" : "@contract/*"} en vez de una ruta relativa al servidor`;
      if (isRouter && !typeOnly) return "de @server-router solo se importa el tipo (import type { AppRouter })";
      return null;
    }
    if (top !== "web" || area !== "src") return null;
    if (fileArea === "src" && fileDir === "features") {
      if (dir === "features" && segments(target)[3] !== fileName)
        return "una feature web no importa otra feature (use web/src/lib o components/ui)";
      if (dir === "app") return "una feature web no importa app/ (las páginas de app/ componen features, no al revés)";
    }
    if (fileArea === "src" && (fileDir === "lib" || fileDir === "components") && (dir === "features" || dir === "app"))
      return `web/src/${fileDir} no importa features ni app/`;
    return null;
  }

  if (fileTop === "server") {
    if (fileArea === "contract" && !(top === "server" && area === "contract"))
      return "server/contract/ lo comparte la web: no importa nada del servidor fuera de contract/";
    if (["lib", "db", "providers", "http"].includes(fileArea) && top === "server" && area === "features")
      return `server/${fileArea}/ no importa features`;
    if (fileArea === "features") {
      if (top !== "server") return "una feature del servidor no importa fuera de server/";
      if (area === "features")
        return dir === fileDir ? null : "una feature no importa otra feature (ponga lo común en lib/, db/ o contract/)";
      if (!serverLayers.includes(area) && !serverFiles.includes(area))
        return `una feature solo importa contract/, lib/, db/, providers/, http/, trpc/ y su propia carpeta (no ${area})`;
    }
  }
  return null;
}

function resolveSpecifier(fromFile, spec) {
  if (spec.startsWith(".")) return { target: path.relative(root, path.resolve(path.dirname(fromFile), spec)), viaAlias: false };
  if (spec.startsWith("@contract/")) return { target: `server/contract/${spec.slice("@contract/".length)}`, viaAlias: true };
  if (spec === "@server-router") return { target: "server/trpc/router.ts", viaAlias: true };
  return null; // a package
}

const typeOnlyImport = (node) =>
  node.importKind === "type" ||
  node.exportKind === "type" ||
  (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === "type" || s.exportKind === "type"));

export default {
  rules: {
    "import-boundaries": {
      meta: { type: "problem", schema: [], messages: { forbidden: "Importación no permitida: {{why}}." } },
      create(context) {
        const file = path.relative(root, context.filename);
        const check = (node, source) => {
          if (!source || typeof source.value !== "string") return;
          const resolved = resolveSpecifier(context.filename, source.value);
          if (!resolved) return;
          const why = boundaryViolation(file, resolved.target, { viaAlias: resolved.viaAlias, typeOnly: typeOnlyImport(node) });
          if (why) context.report({ node: source, messageId: "forbidden", data: { why } });
        };
        return {
          ImportDeclaration: (node) => check(node, node.source),
          ExportNamedDeclaration: (node) => check(node, node.source),
          ExportAllDeclaration: (node) => check(node, node.source),
          ImportExpression: (node) => check(node, node.source.type === "Literal" ? node.source : null),
        };
      },
    },
  },
};
