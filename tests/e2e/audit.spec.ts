/**
 * The audit trail (docs/domain.md "Audit trail"): a team's history in two clicks from the dashboard, the
 * GET filter form with and without JavaScript, the pages of older records, and the layout on a laptop and
 * a phone (the table scrolls inside its box, never the page).
 */
import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { logins, signedInPage, signIn } from "./support/login.ts";

// One client per run of the file's hooks: in parallel mode a worker may run this file's afterAll, then another
// of its tests (a client ended once would be ended for that test).
let sql: postgres.Sql;
test.beforeAll(() => {
  sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
});
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});
test.describe.configure({ mode: "parallel" });

const laptop = { width: 1366, height: 768 };
const phone = { width: 390, height: 844 };

/** A team of its own with a judge's score, its change, a rename and `extra` submissions, a minute apart, ending now. */
async function teamWithHistory(extra = 0) {
  const name = `Audit ${Date.now()} ${Math.random().toString(36).slice(2, 6)}`;
  const [team] = await sql<{ id: number }[]>`insert into teams (name, name_key) values (${name}, ${name.toLowerCase()}) returning id`;
  const [judge] = await sql<{ id: number; name: string }[]>`select id, name from users where role = 'judge' order by id limit 1`;
  const [admin] = await sql<{ id: number; name: string }[]>`select id, name from users where role = 'admin' order by id limit 1`;
  const comment = "A long comment without spaces: https://example.com/".padEnd(160, "x1y2z3");
  const before = { challenge: "Cipher of the long title", score: 80, comment: "good", submissionScore: 80, status: "reviewed" };
  const after = { challenge: "Cipher of the long title", score: 65, comment, submissionScore: 65, status: "reviewed" };
  const rows = [
    { kind: "score.given", actor: judge, minutesAgo: 3, before: { ...before, score: null, submissionScore: null, status: "pending" }, after: before },
    { kind: "score.changed", actor: judge, minutesAgo: 2, before, after },
    { kind: "team.renamed", actor: admin, minutesAgo: 1, before: { name: `${name} old` }, after: { name } },
    ...Array.from({ length: extra }, (_, index) => ({ kind: "submission.updated", actor: judge, minutesAgo: 10 + index, before: { text: `v${index}` }, after: { text: `v${index + 1}` } })),
  ];
  for (const row of rows) {
    await sql`insert into audit_log (at, kind, actor_id, actor_name, actor_role, via, ip, team_id, subject_id, before, after)
      values (now() - ${row.minutesAgo} * interval '1 minute', ${row.kind}, ${row.actor.id}, ${row.actor.name}, ${row.kind.startsWith("team") ? "admin" : "judge"},
              'session', '203.0.113.9', ${team.id}, 4242, ${sql.json(row.before)}, ${sql.json(row.after)})`;
  }
  return { id: team.id, name };
}

const documentWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

test("a team's history is two clicks from the dashboard, and reads on a laptop and a phone", async ({ page }, testInfo) => {
  const team = await teamWithHistory();
  await page.setViewportSize(laptop);
  await signIn(page, logins.admin);
  await page.goto("/dashboard");
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Teams", exact: true }).click();
  await page.getByRole("link", { name: `History of ${team.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/audit\\?team=${team.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Audit trail" })).toBeVisible();
  await expect(page.getByLabel("Team")).toHaveValue(String(team.id));

  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText("Team renamed");
  const changed = rows.nth(1);
  await expect(changed).toContainText("Score changed");
  await expect(changed).toContainText("Submission #4242");
  await expect(changed).toContainText(/score\s*80\s*→\s*changed to\s*65/);
  await expect(changed).toContainText("via session · 203.0.113.9");
  await expect(changed.locator("time")).toHaveText(/^\w{3} \d{1,2} \w{3} \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M$/);

  expect(await documentWidth(page)).toBeLessThanOrEqual(laptop.width);
  const wrap = await page.locator(".table-wrap").evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
  expect(wrap.scroll, "the table fits a laptop").toBeLessThanOrEqual(wrap.client);
  await page.screenshot({ fullPage: true, path: testInfo.outputPath("audit-1366.png") });

  await page.setViewportSize(phone);
  await page.reload();
  await expect(rows).toHaveCount(3);
  expect(await documentWidth(page), "no sideways scroll of the page on a phone").toBeLessThanOrEqual(phone.width);
  await expect(page.getByLabel("Team")).toBeInViewport();
  await page.screenshot({ fullPage: true, path: testInfo.outputPath("audit-390.png") });
});

test("the filter form and the page links work without JavaScript", async ({ browser }) => {
  const team = await teamWithHistory(4);
  const page = await signedInPage(browser, logins.admin, { javaScriptEnabled: false });
  await page.goto(`/dashboard/audit?team=${team.id}&limit=3`);
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(3);
  await page.getByRole("link", { name: "Older ›" }).click();
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText("Submission updated");
  await page.getByRole("link", { name: "Older ›" }).click();
  await expect(rows).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Older ›" })).toHaveCount(0);
  await page.getByRole("link", { name: "‹ Newer" }).click();
  await expect(rows).toHaveCount(3);

  await page.getByLabel("Kind of change").selectOption("score.changed");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/kind=score\.changed/);
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText("Score changed");

  // A time that does not exist is refused beside its field, what was asked kept.
  await page.goto(`/dashboard/audit?team=${team.id}&from=2026-02-30T10:00`);
  await expect(page.getByText("This date or time does not exist")).toBeVisible();
  await expect(page.getByLabel("Team")).toHaveValue(String(team.id));
});

test("judges are refused the audit trail", async ({ page }) => {
  await signIn(page, logins.judge);
  const response = await page.goto("/dashboard/audit");
  expect(response?.status()).toBe(403);
});
