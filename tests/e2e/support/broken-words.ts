import type { Locator } from "@playwright/test";

/**
 * The words (runs of three or more characters without a space) inside `area` whose text the browser laid out on more
 * than one line: a date, an amount or a status cut inside ("08-12-" / "2025", "Pendient" / "e"). Empty when none is.
 */
export function wordsBrokenAcrossLines(area: Locator): Promise<string[]> {
  return area.evaluateAll((roots) => {
    const broken: string[] = [];
    for (const root of roots) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const word of text.matchAll(/\S{3,}/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          // Screen-reader-only text is clipped to a pixel: its boxes have no width.
          const lines = new Set([...range.getClientRects()].filter((box) => box.width > 1).map((box) => Math.round(box.top)));
          if (lines.size > 1) broken.push(word[0]);
        }
      }
    }
    return broken;
  });
}
