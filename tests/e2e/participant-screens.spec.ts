/**
 * The participant screens one by one: their texts and behaviour, beyond the
 * journey in participant.spec.ts. Instants are moved in the e2e server's database where a screen
 * depends on them (the final countdown), and put back afterwards.
 */
import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { logins, participant, signedInPage } from "./support/login.ts";

// Several browsers and pages per test: leave room for a busy machine.
test.describe.configure({ timeout: 60_000 });

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

/** The original platform's intro, word for word. */
const INTRO_TEXT =
  "you had a second awaking from now you can level up your strength intelligence, but !! are you brave enough to do it ?";

async function fillLogin(page: Page, name: string) {
  await page.goto("/login");
  await page.getByLabel("Username").fill(name);
  await page.getByLabel("Password").fill(logins.participant.password);
  await page.getByRole("button", { name: "Login" }).click();
}

/** The public bar as a visitor sees it. */
async function expectVisitorBar(page: Page) {
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
  await expect(page.getByRole("link", { name: "Login" })).toHaveAttribute("href", "/login");
  await expect(page.getByRole("button", { name: "Enter full screen" })).toBeVisible();
}

test.describe("public layout and intro", () => {
  test("the intro at / asks if you are brave enough and 'Yes i’m' leads to /login; the public bar is on every public page", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Are you brave enough!!" })).toBeVisible();
    await expect(page.getByText(INTRO_TEXT, { exact: true })).toBeVisible();
    await expectVisitorBar(page);

    for (const path of ["/register", "/404"]) {
      await page.goto(path);
      await expectVisitorBar(page);
    }
    // /login has its back arrow instead of the bar, and the full-screen toggle.
    await page.goto("/login");
    await expect(page.getByRole("link", { name: "Back to the intro" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Enter full screen" })).toBeVisible();

    await page.goto("/");
    await page.getByRole("link", { name: "Yes i’m" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { name: "LOGIN" })).toBeVisible();
  });

  test("signed in, Home goes to /home and the logout icon logs out and returns to /, with or without JavaScript", async ({ browser }) => {
    for (const javaScriptEnabled of [true, false]) {
      const page = await signedInPage(browser, participant("kraken3"), { javaScriptEnabled });
      await page.goto("/");
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" })).toHaveAttribute("href", "/home");
      await page.getByRole("button", { name: "Logout" }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
      await page.goto("/gates");
      await expect(page).toHaveURL(/\/login\?redirectTo=/);
      await page.context().close();
    }
  });
});

test.describe("participant screens", () => {
  test("the preloader shows a progress bar and its percentage while the theme's images load, then /welcome", async ({ browser }) => {
    // Motion allowed: the preloader then waits 500 ms at 100% before moving on.
    const context = await browser.newContext({ reducedMotion: "no-preference" });
    const page = await context.newPage();
    // Hold one theme image so the bar can be seen part way.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/theme/medal-3.svg", async (route) => {
      await held;
      await route.continue();
    });
    await fillLogin(page, "griffin2");
    await expect(page).toHaveURL(/\/preloader\?next=/);
    const bar = page.getByRole("progressbar", { name: "Loading" });
    const percent = page.locator(".preloader__percent");
    await expect
      .poll(async () => {
        const value = Number(await bar.getAttribute("value"));
        return value > 0 && value < 100 && (await percent.textContent()) === `${value}%`;
      })
      .toBe(true);
    release();
    await expect(percent).toHaveText("100%");
    await expect(bar).toHaveAttribute("value", "100");
    await expect(page).toHaveURL(/\/\/[^/?]+\/welcome$/); // the page itself, not /preloader?next=/welcome
    await context.close();
  });

  test("a gate board: a solved card says 'you got greater then 65%', an open one 'do your best'; the overlay uncovers the solved share", async ({ browser }) => {
    const page = await signedInPage(browser, participant("phoenix2"));
    await page.goto("/gate/1");
    const card = (title: string) => page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
    await expect(card("Runes of Order")).toContainText("you got greater then 65%");
    await expect(card("Runes of Order")).toContainText("Problem Solving");
    await expect(card("Runes of Order")).toHaveClass(/challenge-card--solved/);
    await expect(card("Oracle's First Sight")).toContainText("do your best");
    await expect(card("Oracle's First Sight")).not.toHaveClass(/challenge-card--solved/);
    // The solved share of the cards shown (other specs add challenges to gate 1 as they run): the cover hides the rest.
    const cards = page.locator(".challenge-card");
    const solved = await page.locator(".challenge-card--solved").count();
    const percent = Math.round((solved / (await cards.count())) * 100);
    expect(solved).toBeGreaterThan(0);
    await expect(page.getByText(`${percent}% of this gate solved`)).toBeVisible();
    await expect(page.locator(".gate-progress__cover")).toHaveAttribute("style", new RegExp(`width:\\s*${100 - percent}%`));
    await page.context().close();
  });

  test("a GD challenge heads its hints Judging Criteria, and the page says Loading... while it loads", async ({ browser }) => {
    const page = await signedInPage(browser, participant("phoenix2"));
    await page.goto("/gate/2");
    // Hold the page's data (client navigation) until its pending state has been seen.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/submition\/\d+\.data/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("link", { name: "Next: Banner of the Clan" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Loading..." })).toBeVisible();
    release();
    await expect(page.getByRole("heading", { level: 1, name: "Banner of the Clan" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Judging Criteria" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Challenge Hints" })).toHaveCount(0);
    await expect(page.getByText("Judged on clarity, originality and craft.", { exact: false })).toBeVisible();
    await page.context().close();
  });

  test("the scoreboard: medals for the top 3, positions after, the own team highlighted, social links and the points chart", async ({ browser }) => {
    const page = await signedInPage(browser, participant("phoenix2"));
    await page.goto("/scoreboard");
    await expect(page.getByRole("heading", { level: 1, name: "Scoreboard" })).toBeVisible();
    await expect(page.getByText(/Thank you to every team, mentor and judge/)).toBeVisible();
    await expect(page.getByRole("link", { name: /Discord/ })).toBeVisible();

    // Other tests score and add teams meanwhile: check the places, not which team holds them.
    const rows = page.locator("tbody tr");
    await expect(rows.nth(0).getByRole("img", { name: "1st place, gold medal" })).toBeVisible();
    await expect(rows.nth(1).getByRole("img", { name: "2nd place, silver medal" })).toBeVisible();
    await expect(rows.nth(2).getByRole("img", { name: "3rd place, bronze medal" })).toBeVisible();
    await expect(rows.nth(3).locator(".scoreboard__position")).toHaveText("4");
    await expect(rows.nth(3).getByRole("img")).toHaveCount(0);

    const own = page.getByRole("row", { name: /Phoenix/ });
    await expect(own).toContainText("(your team)");
    await expect(own).toHaveClass(/scoreboard__row--own/);
    await expect(page.locator(".scoreboard__row--own")).toHaveCount(1);

    const chart = page.getByRole("figure", { name: /Points over time/ });
    await expect(chart).toBeVisible();
    await expect(chart.getByRole("img", { name: /Points of the top \d+ teams/ })).toBeVisible();
    // One line per team on the board, up to 10.
    await expect.poll(async () => (await chart.locator("path.score-chart__line").count()) === Math.min(10, await rows.count())).toBe(true);
    await expect(chart.locator("path.score-chart__line--own")).toHaveAttribute("data-team", "Phoenix");
    // The chart follows the top of the board; other tests add teams with points, so the top is read, not assumed.
    await expect
      .poll(async () => {
        const top = (await rows.locator(".scoreboard__name").allInnerTexts()).slice(0, 10);
        const keys = await chart.getByRole("listitem").allInnerTexts();
        return top.filter((team) => keys.filter((key) => key.includes(team)).length !== 1);
      })
      .toEqual([]);
    await page.context().close();
  });

  test("the scoreboard and its chart are there without JavaScript", async ({ browser }) => {
    const page = await signedInPage(browser, participant("phoenix2"), { javaScriptEnabled: false });
    await page.goto("/scoreboard");
    await expect(page.locator("tbody tr").first().getByRole("img", { name: "1st place, gold medal" })).toBeVisible();
    expect(await page.locator("path.score-chart__line").count()).toBe(Math.min(10, await page.locator("tbody tr").count()));
    await page.context().close();
  });

  test("the final countdown shows 00:00:00 once the instant has passed", { tag: "@event-wide" }, async ({ browser }) => {
    const [settings] = await sql`select final_at from event_settings where id = 1`;
    await sql`update event_settings set final_at = now() - interval '1 minute' where id = 1`;
    try {
      const page = await signedInPage(browser, participant("phoenix2"));
      // Fake timers: runFor fires the countdown's ticks for three seconds at once, however busy the machine.
      await page.clock.install();
      await page.goto("/timer");
      await expect(page.getByRole("heading", { name: "THE FINAL OF GATES" })).toBeVisible();
      await expect(page.getByRole("timer")).toHaveText("00:00:00");
      // Still zero after the countdown's ticks have run: it does not count up or go negative.
      await page.clock.runFor(3_000);
      await expect(page.getByRole("timer")).toHaveText("00:00:00");
      await page.context().close();
    } finally {
      await sql`update event_settings set final_at = ${settings.final_at} where id = 1`;
    }
  });
});
