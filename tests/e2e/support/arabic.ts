/**
 * The Arabic screens' helpers (decision 025): a browser whose language is Arabic, the checks every Arabic
 * screen passes, and ARABIC_SCREENSHOTS=<folder> to save a screen at 1366 and 390 px to look at.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { axe } from "./axe.ts";
import { signIn } from "./login.ts";

export const SHOTS = process.env.ARABIC_SCREENSHOTS;

/** A browser whose language is Arabic (the cookie the switch sets), signed in as `who` unless null. */
export async function arabicPage(browser: Browser, who: { name: string; password: string } | null, viewport = { width: 1366, height: 900 }) {
  const context = await browser.newContext({ reducedMotion: "reduce", viewport });
  const page = await context.newPage();
  if (who) await signIn(page, who);
  const baseURL = test.info().project.use.baseURL!;
  await context.addCookies([{ name: "lang", value: "ar", url: baseURL }]);
  return page;
}

export async function expectArabic(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("lang", "ar");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
}

/** axe's violations, one line each ("rule: targets"). */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  const { violations } = await axe(page).analyze();
  return violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}

export async function expectAccessible(page: Page) {
  expect(await accessibilityViolations(page)).toEqual([]);
}

/** The screen at 1366 and at 390 px (a phone), when asked for. */
export async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  await mkdir(SHOTS, { recursive: true });
  const wide = page.viewportSize() ?? { width: 1366, height: 900 };
  for (const viewport of [wide, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    // The page lays itself out again at the new width before it is captured (two frames).
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.screenshot({ path: path.join(SHOTS, `${name}-${viewport.width}.png`), fullPage: true });
  }
  await page.setViewportSize(wide);
}
