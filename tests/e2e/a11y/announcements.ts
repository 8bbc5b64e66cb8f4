import type { BrowserContext, Page } from "@playwright/test";

// What a screen reader is told without moving the focus: every text that enters a live region (role alert, status or
// log, aria-live polite or assertive), in order. Chromium hands these insertions to Orca and NVDA as they happen; the
// review with Orca (docs/accesibilidad.md, 'Revisión con lector de pantalla') heard exactly these, so a test reads them here.

declare global {
  interface Window {
    __announced?: string[];
  }
}

function recordLiveRegions(): void {
  const said: string[] = [];
  window.__announced = said;
  const live = "[role=alert],[role=status],[role=log],[aria-live=polite],[aria-live=assertive]";
  const textOf = (node: Node) => (node.textContent ?? "").replace(/\s+/g, " ").trim();
  new MutationObserver((records) => {
    for (const record of records) {
      const parent = record.target instanceof Element ? record.target : record.target.parentElement;
      if (parent?.closest(live)) {
        // Text added inside a region that was already there.
        const added = record.type === "characterData" ? [record.target] : [...record.addedNodes];
        for (const node of added) if (textOf(node)) said.push(textOf(node));
        continue;
      }
      // A region inserted with its text (a banner with role=alert, say).
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        const regions = node.matches(live) ? [node] : [...node.querySelectorAll(live)];
        for (const region of regions) if (textOf(region)) said.push(textOf(region));
      }
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

/** Starts recording in every page of the context, from the next navigation on (pages opened later too). */
export async function recordAnnouncements(context: BrowserContext): Promise<void> {
  await context.addInitScript(recordLiveRegions);
}

/** What the page has announced so far. */
export function announced(page: Page): Promise<string[]> {
  return page.evaluate(() => [...(window.__announced ?? [])]);
}

/** Forgets what was announced so far (to look at what one step says). */
export async function forgetAnnouncements(page: Page): Promise<void> {
  await page.evaluate(() => window.__announced?.splice(0));
}
