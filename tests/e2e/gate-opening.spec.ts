/**
 * A gate opening while participants wait on /gates: the closed card's countdown turns into the open
 * card by itself, within a second of the server's instant, on the server's clock even when the
 * browser's clock is off; its link then opens the gate. Without JavaScript the card stays as rendered
 * until a reload. The gate's instant is moved in the e2e server's database and put back afterwards.
 */
import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { participant, signedInPage } from "./support/login.ts";

// Three browsers wait for a gate to open, seconds ahead.
test.describe.configure({ timeout: 60_000 });

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

const GATE = 5;
const TITLE = "Gate V — The Throne";
/** The browser's clock, set 90 s behind: uncorrected, its card would open a minute and a half late. */
const SKEW_MS = -90_000;

/** Resolves, in the page, with the real time (the monotonic clock, not Date) at which the card shows its link. */
function whenCardOpens(page: Page) {
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve) => {
        const opened = () => [...document.querySelectorAll("a")].some((link) => link.getAttribute("aria-label") === name);
        if (opened()) return resolve(performance.timeOrigin + performance.now());
        const observer = new MutationObserver(() => {
          if (!opened()) return;
          observer.disconnect();
          resolve(performance.timeOrigin + performance.now());
        });
        observer.observe(document.body, { childList: true, subtree: true });
      }),
    `Next: ${TITLE}`,
  );
}

test("a waiting /gates page opens the gate's card at the server's instant, also with a browser clock 90 s off; without JavaScript it waits for a reload", { tag: "@event-wide" }, async ({ browser }, testInfo) => {
  const [saved] = await sql`select opens_at from gates where number = ${GATE}`;
  // The server and this test share the machine's clock: Postgres' now() is the server's.
  const [{ at }] = await sql<{ at: Date }[]>`update gates set opens_at = now() + interval '10 seconds' where number = ${GATE} returning opens_at as at`;
  const instant = at.getTime();
  try {
    const desktop = await signedInPage(browser, participant("phoenix2"));
    await desktop.setViewportSize({ width: 1366, height: 900 });
    const phone = await signedInPage(browser, participant("basilisk3"));
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.addInitScript((shift) => {
      const RealDate = Date;
      class ShiftedDate extends RealDate {
        constructor(...args: unknown[]) {
          if (args.length === 0) super(RealDate.now() + shift);
          else super(...(args as [string]));
        }
        static now() {
          return RealDate.now() + shift;
        }
      }
      globalThis.Date = ShiftedDate as DateConstructor;
    }, SKEW_MS);
    const noScript = await signedInPage(browser, participant("phoenix2"), { javaScriptEnabled: false });

    const pages = [desktop, phone, noScript];
    for (const page of pages) {
      await page.goto("/gates");
      const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: TITLE }) });
      await expect(card.getByRole("timer")).toBeVisible();
      await expect(card.getByRole("link")).toHaveCount(0);
    }
    expect(await phone.evaluate(() => Date.now() - (performance.timeOrigin + performance.now()))).toBeLessThan(-80_000);
    expect(Date.now(), "the pages loaded before the instant (a busy machine: rerun)").toBeLessThan(instant - 500);
    await desktop.screenshot({ path: testInfo.outputPath("gates-1366-before.png"), fullPage: true });
    await phone.screenshot({ path: testInfo.outputPath("gates-390-before.png"), fullPage: true });

    const [desktopAt, phoneAt] = await Promise.all([whenCardOpens(desktop), whenCardOpens(phone)]);
    for (const openedAt of [desktopAt, phoneAt]) {
      // Never before the server's instant (a few ms for the clocks' resolution), at most a second after.
      expect(openedAt).toBeGreaterThanOrEqual(instant - 20);
      expect(openedAt).toBeLessThanOrEqual(instant + 1000);
    }
    await desktop.screenshot({ path: testInfo.outputPath("gates-1366-after.png"), fullPage: true });
    await phone.screenshot({ path: testInfo.outputPath("gates-390-after.png"), fullPage: true });

    // Without JavaScript the page stays as the server rendered it; a reload shows the gate open.
    const waiting = noScript.getByRole("listitem").filter({ has: noScript.getByRole("heading", { name: TITLE }) });
    await expect(waiting.getByRole("timer")).toBeVisible();
    await noScript.reload();
    await expect(waiting.getByRole("link", { name: `Next: ${TITLE}` })).toBeVisible();

    // The flipped card's link opens the gate: the server, asked after the instant, serves it open.
    for (const page of [desktop, phone]) {
      await page.getByRole("link", { name: `Next: ${TITLE}` }).click();
      await expect(page).toHaveURL(new RegExp(`/gate/${GATE}$`));
      await expect(page.getByRole("link", { name: "Next: The Throne's Riddle" })).toBeVisible();
      await expect(page.getByText("This gate is still sealed")).toHaveCount(0);
    }
    for (const page of pages) await page.context().close();
  } finally {
    await sql`update gates set opens_at = ${saved.opens_at} where number = ${GATE}`;
  }
});
