/**
 * The app's own links (app/components/ui/app-link.tsx: the top bar, the action links) behave as Remix's
 * <Link> did: the router moves between pages without loading a new document, the top bar marks the page
 * shown, going back works, and a pointer resting on a link prefetches its page (not /announcement's, whose
 * loader marks announcements read).
 */
import { expect, test, type Page } from "@playwright/test";
import { participant, signedInPage } from "./support/login.ts";

test.describe.configure({ timeout: 60_000 });

/** A mark on the window: still there after a navigation only if no new document was loaded. */
async function markDocument(page: Page) {
  await page.evaluate(() => Object.assign(window, { sameDocumentMark: true }));
}
async function sameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { sameDocumentMark?: boolean }).sameDocumentMark === true);
}

test("the top bar's links move between pages in the same document and mark the page shown; back returns", async ({ browser }) => {
  const page = await signedInPage(browser, participant("phoenix3"));
  // The browser knows every route from the manifest file: it never asks the server for one (route discovery is
  // off, docs/decisions/052-route-discovery-off.md).
  const discoveries: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/__manifest") discoveries.push(request.url());
  });
  await page.goto("/gates");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Gates" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Status" })).not.toHaveAttribute("aria-current", "page");
  await page.waitForFunction(() => "__remixRouter" in window);
  await markDocument(page);

  await nav.getByRole("link", { name: "Status" }).click();
  await expect(page).toHaveURL(/\/status$/);
  await expect(nav.getByRole("link", { name: "Status" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Status" })).toHaveClass("active");
  await expect(nav.getByRole("link", { name: "Gates" })).not.toHaveAttribute("aria-current", "page");
  expect(await sameDocument(page)).toBe(true);

  await page.goBack();
  await expect(page).toHaveURL(/\/gates$/);
  await expect(nav.getByRole("link", { name: "Gates" })).toHaveAttribute("aria-current", "page");
  expect(await sameDocument(page)).toBe(true);
  expect(discoveries).toEqual([]);

  // A modified click is the browser's: a new tab, not a navigation of this page.
  const opened = page.context().waitForEvent("page");
  await nav.getByRole("link", { name: "Timer" }).click({ modifiers: ["ControlOrMeta"] });
  const tab = await opened;
  // A new tab starts on about:blank: wait for the page it was opened for.
  await tab.waitForURL((url) => url.pathname === "/timer");
  await expect(page).toHaveURL(/\/gates$/);
  await page.context().close();
});

test("a pointer resting on a top-bar link prefetches its page; not on Announcement", async ({ browser }) => {
  const page = await signedInPage(browser, participant("phoenix3"));
  await page.goto("/gates");
  await page.waitForFunction(() => "__remixRouter" in window);
  const nav = page.getByRole("navigation", { name: "Main" });
  const prefetched = (path: string) => page.locator(`link[rel="prefetch"][href^="${path}.data"]`);

  await nav.getByRole("link", { name: "Scoreboard" }).hover();
  await expect(prefetched("/scoreboard")).toHaveCount(1);

  await nav.getByRole("link", { name: "Announcement" }).hover();
  // The scoreboard's prefetch ends with the pointer leaving; nothing is added for /announcement.
  await expect(prefetched("/scoreboard")).toHaveCount(0);
  await page.waitForTimeout(300); // the 100 ms intent delay, with room: an absence cannot be awaited
  await expect(prefetched("/announcement")).toHaveCount(0);
  await page.context().close();
});
