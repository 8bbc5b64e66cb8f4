import type { Page } from "@playwright/test";

const reportAddress = /\/api\/rcr\/v1\/results\/report\?token=/;

/**
 * The tab a report opens and the address it asked for (the signed report link). Read from the tab's request, not its
 * address bar: Chromium shows the PDF in its viewer, but its headless shell (the tests' browser where installed, as
 * Playwright's own default) has no viewer and turns the same navigation into a download, leaving the tab blank. Call it
 * before the click, so neither the tab nor its request goes unheard.
 */
export async function reportTab(page: Page): Promise<{ tab: Page; address: string }> {
  const [tab, request] = await Promise.all([
    page.waitForEvent("popup"),
    page.context().waitForEvent("request", { predicate: (sent) => reportAddress.test(sent.url()), timeout: 10_000 }),
  ]);
  return { tab, address: request.url() };
}
