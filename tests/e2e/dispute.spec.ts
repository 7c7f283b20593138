import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { budgetSteps } from "./support/budget.ts";
import { freshChallengeToJudge } from "./support/judging.ts";
import { logins, signedInPage } from "./support/login.ts";

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

test("a dispute: a judge changes a score; the admin finds who, when and the old value in two clicks from the team", async ({ browser }) => {
  // Steps: two sign-ins, the workspace, the first score, the submission again, the change, the dashboard,
  // Teams, the team's history.
  budgetSteps(10);
  const event = await freshChallengeToJudge(sql, 1);
  const team = event.teams[0];
  const [submission] = await sql<Array<{ id: number }>>`select id from submissions where challenge_id = ${event.challengeId}`;

  // The judge scores it, then comes back to it and changes the score.
  const judge = await signedInPage(browser, event.judge);
  await judge.goto(`/dashboard/judge?challenge=${event.challengeId}`);
  await judge.getByLabel("Score (0 to 10)").fill("8");
  await judge.getByLabel("Comment (optional)").fill("Solid work");
  await judge.getByRole("button", { name: /^Save/ }).click();
  await expect(judge.getByText(`Score saved: 8 for ${team} on ${event.title}.`)).toBeVisible();
  await judge.goto(`/dashboard/judge?s=${submission.id}`);
  await judge.getByLabel("Score (0 to 10)").fill("6.5");
  await judge.getByLabel("Comment (optional)").fill("Missed the edge case");
  await judge.getByRole("button", { name: /^Save/ }).click();
  await expect(judge.getByText(`Score saved: 6.5 for ${team} on ${event.title}.`)).toBeVisible();
  await judge.context().close();

  // The admin, from the dashboard: Teams, then the team's history.
  const admin = await signedInPage(browser, logins.admin);
  await admin.goto("/dashboard");
  await admin.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Teams", exact: true }).click();
  await admin.getByRole("link", { name: `History of ${team}` }).click();
  const changed = admin.locator("tbody tr", { hasText: "Score changed" });
  await expect(changed).toHaveCount(1);
  await expect(changed).toContainText(event.judge.name);
  await expect(changed).toContainText(`Submission #${submission.id}`);
  await expect(changed).toContainText(/score\s*8\s*→\s*changed to\s*6\.5/);
  await expect(changed).toContainText(/comment\s*Solid work\s*→\s*changed to\s*Missed the edge case/);
  await expect(changed.locator("time")).toHaveText(/^\w{3} \d{1,2} \w{3} \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M$/);
  await expect(admin.locator("tbody tr", { hasText: "Score given" })).toHaveCount(1);
  await admin.context().close();
});
