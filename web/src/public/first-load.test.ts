import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The login page's JavaScript budget (issue 14, 100 KB gzip, node scripts/web-weight.mjs) holds only while the first
// load — web/src/main.tsx and everything it imports statically — leaves the signed-in app's libraries to be loaded on
// demand. This follows the static imports of the sources (dynamic import() calls are not followed), so a stray import
// is caught without a build.

const root = path.resolve(import.meta.dirname, "../../..");
const aliases: [string, string][] = [["@contract/", "server/contract/"]];
const staticImport = /^(?:import|export) (?!type )(?:[^;"']*\bfrom )?["']([^"']+)["']/gm;

/** Bare package names reached from `entry` through static imports, each with one chain of files that reaches it. */
function packagesOfFirstLoad(entry: string): Map<string, string[]> {
  const parents = new Map<string, string | null>([[entry, null]]);
  const chainTo = (file: string) => {
    const chain: string[] = [];
    for (let at: string | null | undefined = file; at; at = parents.get(at)) chain.unshift(path.relative(root, at));
    return chain;
  };
  const packages = new Map<string, string[]>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.shift()!;
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(staticImport)) {
      let target = specifier!;
      for (const [alias, dir] of aliases) if (target.startsWith(alias)) target = path.join(root, dir, target.slice(alias.length));
      if (target.startsWith(".")) target = path.resolve(path.dirname(file), target);
      if (!path.isAbsolute(target)) {
        const name = target.startsWith("@") ? target.split("/").slice(0, 2).join("/") : target.split("/")[0]!;
        if (!packages.has(name)) packages.set(name, chainTo(file));
        continue;
      }
      if (!/\.(ts|tsx)$/.test(target) || !existsSync(target) || parents.has(target)) continue;
      parents.set(target, file);
      queue.push(target);
    }
  }
  return packages;
}

describe("the login page's first load", () => {
  const packages = packagesOfFirstLoad(path.join(root, "web/src/main.tsx"));

  it("finds the libraries it does load (React, the plain tRPC client)", () => {
    expect([...packages.keys()]).toEqual(expect.arrayContaining(["react", "react-dom", "@trpc/client"]));
  });

  it.each(["zod", "react-router", "@tanstack/react-query", "crypto-js"])("does not load %s before it is needed", (name) => {
    expect(packages.get(name), `${name} llega por ${packages.get(name)?.join(" → ")}`).toBeUndefined();
  });
});

/** Fails, naming the chain of imports, when `entry` (a path from the root) loads zod through its static imports. */
function expectNoZodAtFirst(entry: string) {
  const packages = packagesOfFirstLoad(path.join(root, entry));
  expect(packages.get("zod"), `zod llega por ${packages.get("zod")?.join(" → ")}`).toBeUndefined();
}

// docs/rendimiento.md: pages without a form do not load zod (90 KB of JavaScript to evaluate on a phone). The app's
// frame is on every signed-in page; the bills and scheduling pages have no form (the staff bills search is a plain
// field).
describe("signed-in pages without a form", () => {
  it.each([
    "web/src/app/App.tsx",
    "web/src/app/routes/MyBillsRoute.tsx",
    "web/src/features/scheduling/SchedulingPage.tsx",
    "web/src/features/bills/AdminBillsPage.tsx",
  ])("%s does not load zod", expectNoZodAtFirst);
});

// Pages whose forms load their rules on demand (issue 46): 'Mis datos', the landing page after login, and the results
// pages with their date filter paint before anyone types; their forms load zod and the contract's schemas when a field
// first gets the focus. Built at module load, those rules were 0.2 s of a throttled phone's main thread before 'Mis
// datos' first painted.
describe("signed-in pages whose forms load their rules on demand", () => {
  it.each([
    "web/src/app/routes/AccountSettingsRoute.tsx",
    "web/src/features/laboratory/LaboratoryPage.tsx",
    "web/src/features/imaging/ImagingPage.tsx",
  ])("%s does not load zod before a form needs it", expectNoZodAtFirst);
});
