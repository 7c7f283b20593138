import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { nameColumns } from "../../app/modules/names/names.ts";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { budgetSteps } from "./support/budget.ts";
import { logins, signedInPage, signIn } from "./support/login.ts";

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

/** A team of its own with a flag challenge and three answers to it: a hostile wrong one, a plain wrong one, a right one. */
async function teamWithAttempts() {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const team = nameColumns(`Kites ${stamp}`);
  const [{ id: teamId }] = await sql<Array<{ id: number }>>`insert into teams (name, name_key) values (${team.name}, ${team.nameKey}) returning id`;
  const [{ id: challengeId }] = await sql<Array<{ id: number }>>`insert into challenges (title, description, points, category, wave, checking, max_attempts)
    values (${`Flag ${stamp}`}, 'd', 100, 'CS', 1, 'flag', 3) returning id`;
  await sql`insert into challenge_flags (challenge_id, position, kind, value) values (${challengeId}, 1, 'exact', ${`GK{${stamp}}`})`;
  const now = Date.now();
  await sql`insert into flag_attempts (team_id, challenge_id, at, verdict, answer) values
    (${teamId}, ${challengeId}, ${new Date(now - 3000)}, 'incorrect', ${"<img src=x onerror=alert(1)>\u202Egk{ltr}"}),
    (${teamId}, ${challengeId}, ${new Date(now - 2000)}, 'incorrect', 'gk{typo}')`;
  await sql`insert into flag_attempts (team_id, challenge_id, at, verdict, matched) values (${teamId}, ${challengeId}, ${new Date(now - 1000)}, 'correct', 1)`;
  return { teamId, team: team.name, challengeId, challenge: `Flag ${stamp}`, flag: `GK{${stamp}}` };
}

test("an admin reads a team's flag attempts and resets its wrong answers", async ({ browser }, testInfo) => {
  // Steps: a sign-in, the page, the filter, the reset and its toast.
  budgetSteps(8);
  const seeded = await teamWithAttempts();
  const page = await signedInPage(browser, logins.admin);
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Attempts" }).click();
  await expect(page.getByRole("heading", { name: "Flag attempts" })).toBeVisible();

  await page.getByLabel("Team", { exact: true }).selectOption({ label: seeded.team });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`team=${seeded.teamId}`));
  const rows = page.locator(".attempts-table tbody tr");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText("answer 1");
  await expect(rows.nth(1)).toContainText("gk{typo}");
  // The typed answer is text, isolated: no element made of it, and the override shown, not obeyed.
  await expect(rows.nth(2).locator("bdi").last()).toHaveText("<img src=x onerror=alert(1)><U+202E>gk{ltr}");
  await expect(rows.nth(2).locator("img")).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(seeded.flag);
  await page.screenshot({ fullPage: true, path: testInfo.outputPath("attempts.png") });

  page.on("dialog", (dialog) => dialog.accept());
  const reset = page.locator(`[data-reset="${seeded.teamId}-${seeded.challengeId}"]`);
  await expect(reset).toContainText("2 of 3");
  await reset.getByRole("button", { name: "Reset" }).click();
  await expect(page.getByText(`${seeded.team} may answer ${seeded.challenge} again: 2 wrong answers no longer count.`)).toBeVisible();
  await expect(reset).toHaveCount(0);
  await expect(rows.nth(1)).toContainText("(reset: not counted)");
  await expect(page).toHaveURL(new RegExp(`team=${seeded.teamId}`));
});

test("the filters, the tabs and the reset work without JavaScript", async ({ browser }) => {
  budgetSteps(8);
  const seeded = await teamWithAttempts();
  const page = await signedInPage(browser, logins.admin, { javaScriptEnabled: false });
  await page.goto(`/dashboard/attempts?team=${seeded.teamId}`);
  await page.getByLabel("Verdict").selectOption("incorrect");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/verdict=incorrect/);
  await expect(page.locator(".attempts-table tbody tr")).toHaveCount(2);
  await expect(page.getByRole("link", { name: "Download these attempts (CSV)" })).toHaveAttribute("href", new RegExp(`team=${seeded.teamId}.*verdict=incorrect`));

  await page.locator(`[data-reset="${seeded.teamId}-${seeded.challengeId}"]`).getByRole("button", { name: "Reset" }).click();
  await expect(page.getByText(/2 wrong answers no longer count/)).toBeVisible();
  await expect(page).toHaveURL(/verdict=incorrect/);

  await page.getByRole("link", { name: /^Sharing signals/ }).click();
  await expect(page.getByRole("heading", { name: "Sharing signals" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`view=sharing.*team=${seeded.teamId}`));
});

test("judges are refused the attempts", async ({ page }) => {
  await signIn(page, logins.judge);
  const response = await page.goto("/dashboard/attempts");
  expect(response?.status()).toBe(403);
});

test("an admin tests an answer without recording it, with and without JavaScript", async ({ browser }) => {
  budgetSteps(8);
  const seeded = await teamWithAttempts();
  for (const javaScriptEnabled of [true, false]) {
    const page = await signedInPage(browser, logins.admin, { javaScriptEnabled });
    await page.goto("/dashboard/attempts");
    const form = page.getByRole("form", { name: "Test an answer" });
    await form.getByLabel("Challenge to test").selectOption({ label: seeded.challenge });
    await form.getByLabel("Answer to try").fill("gk{not it}");
    await form.getByRole("button", { name: "Test" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Matches no answer." })).toBeVisible();
    // What was typed is kept; then the right one.
    await expect(form.getByLabel("Answer to try")).toHaveValue("gk{not it}");
    await form.getByLabel("Answer to try").fill(seeded.flag);
    await form.getByRole("button", { name: "Test" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Matches answer 1." })).toBeVisible();
    await page.context().close();
  }
  // Nothing recorded: the three seeded attempts only.
  const [{ count }] = await sql<Array<{ count: number }>>`select count(*)::int as count from flag_attempts where challenge_id = ${seeded.challengeId}`;
  expect(count).toBe(3);
});
