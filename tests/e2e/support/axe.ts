import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * axe-core on a page, every rule it runs. Legacy mode: axe runs in the page itself instead of opening a
 * blank page to merge the frames' results, about 0.7 s an analysis here instead of 1.6 s (decision 014).
 * What it gives up is testing cross-origin frames, and the only ones our pages can hold (a YouTube
 * embed on /home) cannot load on a machine without a network anyway.
 */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true);
}
