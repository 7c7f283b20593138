import { expect, test, type Locator, type Page } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { freshChallengeToJudge } from "./support/judging.ts";
import { logins, signIn } from "./support/login.ts";

// One client per run of the file's hooks: in parallel mode a worker may run this file's afterAll, then another
// of its tests (a client ended once would be ended for that test).
let sql: postgres.Sql;
test.beforeAll(() => {
  sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
});
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

// A laptop screen, the one the dashboard is used on most at the event.
const laptop = { width: 1366, height: 768 };
test.use({ viewport: laptop });
test.describe.configure({ mode: "parallel" });

/** Whether a select shows its chosen option whole: the text fits between its paddings. */
async function showsChoiceUncut(select: Locator) {
  return select.evaluate((element: HTMLSelectElement) => {
    const style = getComputedStyle(element);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return context.measureText(element.selectedOptions[0]?.text ?? "").width <= room;
  });
}

async function rightEdge(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error("not rendered");
  return box.x + box.width;
}

const documentSize = (page: Page) => page.evaluate(() => ({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight }));

test("at 1366 px a row whose answer is a long URL keeps its score form on screen, the answer wrapped", async ({ page }) => {
  // A bare URL of 300 characters without a space, as participants paste them.
  const answer = `https://example.com/${Date.now()}/`.padEnd(300, "x1y2z3");
  // A team and challenge of its own (tests/e2e/support/judging.ts): the demo teams' answers are other tests'.
  await freshChallengeToJudge(sql, 1, { texts: [answer] });

  await signIn(page, logins.judge);
  await page.goto("/dashboard/submissions");
  const row = page.locator("tr", { hasText: answer });
  await expect(row).toBeVisible();
  // Nothing scrolled sideways: every control of the form ends within the screen's width.
  for (const control of [row.getByLabel("Score (0 to 10)"), row.getByLabel("Comment"), row.getByLabel("Status", { exact: true }), row.getByRole("button", { name: "Send" })]) {
    expect(await rightEdge(control)).toBeLessThanOrEqual(laptop.width);
  }
  expect(await rightEdge(row.locator(".submission-text"))).toBeLessThan(await rightEdge(row.getByLabel("Score (0 to 10)")));
  expect((await documentSize(page)).width).toBeLessThanOrEqual(laptop.width);
  const wrap = await page.locator(".table-wrap").evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
  expect(wrap.scroll).toBeLessThanOrEqual(wrap.client);
  expect(await showsChoiceUncut(row.getByLabel("Status", { exact: true }))).toBe(true);
});

test("the sidebar runs the whole length of a long page, its links and Logout in view at its bottom", async ({ page }) => {
  await signIn(page, logins.admin);
  await page.goto("/dashboard/users");
  const sidebar = page.locator(".dashboard__sidebar");
  const { height } = await documentSize(page);
  expect(height).toBeGreaterThan(laptop.height * 1.5);
  // Both measured at one moment: the page grows once it runs (a table's "More to the side" cue), the sidebar with it.
  await expect
    .poll(() => page.evaluate(() => Math.abs(document.querySelector(".dashboard__sidebar")!.getBoundingClientRect().height - document.documentElement.scrollHeight)))
    .toBeLessThanOrEqual(1);
  await expect(sidebar).toBeVisible();

  // Scrolled to the bottom again at each try: the page may still grow once it runs (a table's cue).
  await expect
    .poll(() =>
      page.evaluate(() => {
        window.scrollTo(0, document.documentElement.scrollHeight);
        return Math.round(window.scrollY + window.innerHeight) - document.documentElement.scrollHeight;
      }),
    )
    .toBeGreaterThanOrEqual(-1);
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  await expect(nav.getByRole("link", { name: "Users", exact: true })).toBeInViewport({ ratio: 1 });
  await expect(nav.getByRole("link", { name: "Import" })).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole("button", { name: /^Logout/ })).toBeInViewport({ ratio: 1 });
});

test("the Users form's team select is whole and shows its choice uncut, on a laptop and on a phone", async ({ page }) => {
  await signIn(page, logins.admin);
  for (const viewport of [laptop, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    await page.goto("/dashboard/users");
    const team = page.getByLabel("Team");
    await expect(team).toHaveValue("");
    await team.scrollIntoViewIfNeeded();
    await expect(team, `at ${viewport.width} px`).toBeInViewport({ ratio: 1 });
    expect(await showsChoiceUncut(team), `"No team (Admin, Judge)" uncut at ${viewport.width} px`).toBe(true);
    expect((await documentSize(page)).width).toBeLessThanOrEqual(viewport.width);
  }
});

test("the queue board links back to the dashboard and loads nothing from another origin", async ({ page, baseURL }) => {
  const foreign: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).origin !== new URL(baseURL!).origin) foreign.push(request.url());
  });
  const refused: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  await signIn(page, logins.admin);
  await page.goto("/dashboard/queues");
  // The board has drawn its queues (after its page, its scripts and its first API answer).
  await expect(page.getByRole("main").getByRole("link", { name: "standings", exact: true })).toBeVisible();
  expect(foreign).toEqual([]);
  expect(refused).toEqual([]);

  const back = page.getByRole("link", { name: "Back to dashboard" });
  await expect(back).toBeInViewport({ ratio: 1 });
  await back.click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeVisible();
});
