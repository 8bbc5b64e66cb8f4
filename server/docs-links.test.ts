import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The README and docs/ link to each other and to the code; a moved section or file must not leave a dead link (issue 46).
const root = path.resolve(import.meta.dirname, "..");
const documents = ["README.md", ...readdirSync(path.join(root, "docs")).map((name) => `docs/${name}`)].filter((name) =>
  name.endsWith(".md"),
);

/** GitHub's anchor for a heading (github-slugger): lower case, punctuation dropped, each space a hyphen, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inFence = !inFence;
    const heading = !inFence && /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function links(markdown: string): string[] {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, "");
  return [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

describe("documentation links", () => {
  it("keeps the README a first day's read (at most 300 lines)", () => {
    const lineCount = readFileSync(path.join(root, "README.md"), "utf8").split("\n").length;
    expect(lineCount).toBeLessThanOrEqual(300);
  });

  it.each(documents)("every relative link and anchor in %s leads somewhere", (document) => {
    const markdown = readFileSync(path.join(root, document), "utf8");
    const dead: string[] = [];
    for (const link of links(markdown)) {
      if (/^[a-z]+:/i.test(link)) continue;
      const [target, anchor] = link.split("#");
      const file = target ? path.resolve(path.dirname(path.join(root, document)), decodeURI(target)) : path.join(root, document);
      if (!existsSync(file)) {
        dead.push(`${link} (no such file)`);
        continue;
      }
      if (anchor && file.endsWith(".md") && !headingAnchors(readFileSync(file, "utf8")).has(decodeURIComponent(anchor))) {
        dead.push(`${link} (no such heading)`);
      }
    }
    expect(dead).toEqual([]);
  });

  it("is read by the check itself: a dead link is found", () => {
    const anchors = headingAnchors("# Título\n## Verificación en dos pasos para el personal\n## `npm run stack`: sin Docker\n");
    expect(anchors).toEqual(new Set(["título", "verificación-en-dos-pasos-para-el-personal", "npm-run-stack-sin-docker"]));
    expect(links("ver [x](docs/a.md#b) y `[y](z)`")).toContain("docs/a.md#b");
  });
});
