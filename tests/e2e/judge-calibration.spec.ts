import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { nameColumns } from "../../app/modules/names/names.ts";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { axe } from "./support/axe.ts";
import { logins, signedInPage } from "./support/login.ts";

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

/**
 * Four fresh judges and a fresh challenge (20 points) with three answers from fresh teams: three judges
 * agree (16), the fourth scores 8, 6 and 4 points below them: 40, 30 and 20 percentage points, so -30.0
 * on average with a spread of 10.0. Each fair judge is a third of that above the others' mean (which
 * counts the harsh score): +10.0, spread 3.3. Nobody else scores these answers, so the figures stay as
 * made whatever other tests do.
 */
async function freshOutlier() {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const [{ hash }] = await sql<Array<{ hash: string }>>`select password_hash as hash from users where name = ${logins.judge.name}`;
  const [challenge] = await sql<Array<{ id: number }>>`
    insert into challenges (title, description, points, category, wave) values (${`Calibrated ${stamp}`}, 'Score 0 to 20.', 20, 'PS', 2) returning id`;
  const judgeIds: number[] = [];
  const names = [`Fair A ${stamp}`, `Fair B ${stamp}`, `Fair C ${stamp}`, `Harsh ${stamp}`];
  for (const name of names) {
    const judge = nameColumns(name);
    const [row] = await sql<Array<{ id: number }>>`
      insert into users (name, name_key, role, password_hash) values (${judge.name}, ${judge.nameKey}, 'judge', ${hash}) returning id`;
    judgeIds.push(row.id);
  }
  const [fairA, fairB, fairC, harsh] = judgeIds;
  for (const [index, gap] of [8, 6, 4].entries()) {
    const team = nameColumns(`Calibration ${index} ${stamp}`);
    const [teamRow] = await sql<Array<{ id: number }>>`insert into teams (name, name_key) values (${team.name}, ${team.nameKey}) returning id`;
    const [submission] = await sql<Array<{ id: number }>>`
      insert into submissions (team_id, challenge_id, text) values (${teamRow.id}, ${challenge.id}, 'An answer') returning id`;
    await sql`insert into submission_scores (submission_id, judge_id, score_centi) values
      (${submission.id}, ${fairA}, 1600), (${submission.id}, ${fairB}, 1600), (${submission.id}, ${fairC}, 1600),
      (${submission.id}, ${harsh}, ${(16 - gap) * 100})`;
  }
  return { harsh: names[3], fair: names.slice(0, 3) };
}

test.describe("the judges' calibration", () => {
  test("an admin sees an outlier judge marked, with the difference and its spread", async ({ browser }) => {
    const made = await freshOutlier();
    const admin = await signedInPage(browser, logins.admin);
    await admin.goto("/dashboard");
    await admin.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Judges", exact: true }).click();
    await expect(admin.getByRole("heading", { level: 1, name: "Judges" })).toBeVisible();
    await expect(admin.getByText(/A judge is an outlier when they share at least 3 submissions with other judges and differ from them by 15 percentage points/)).toBeVisible();

    const table = admin.getByRole("table");
    const harsh = table.getByRole("row").filter({ has: admin.getByRole("rowheader", { name: made.harsh }) });
    // Judge, scored, mean score %, shared, mean difference, spread, calibration.
    await expect(harsh.getByRole("cell")).toHaveText(["3", "50.0", "3", "-30.0", "10.0", "Outlier: harsher"]);
    for (const name of made.fair) {
      const fair = table.getByRole("row").filter({ has: admin.getByRole("rowheader", { name }) });
      await expect(fair.getByRole("cell")).toHaveText(["3", "80.0", "3", "+10.0", "3.3", "In line"]);
    }
    // The outlier comes before the judges it was compared with.
    // The row header holds the name, then what the judge is assigned to.
    const order = await table.locator(".calibration__judge > span[dir='auto']").allTextContents();
    expect(order.indexOf(made.harsh)).toBeLessThan(Math.min(...made.fair.map((name) => order.indexOf(name))));
    await admin.context().close();
  });

  test("the page has no serious or critical axe violation", async ({ browser }) => {
    await freshOutlier();
    const admin = await signedInPage(browser, logins.admin);
    await admin.goto("/dashboard/judges");
    await expect(admin.getByText(/^Outlier: /).first()).toBeVisible();
    // On a desktop, and on a phone, where the table scrolls sideways.
    for (const width of [1366, 390]) {
      await admin.setViewportSize({ width, height: 900 });
      const results = await axe(admin).analyze();
      const bad = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
      expect(bad.map((violation) => `${width}px: ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
    }
    await admin.context().close();
  });
});
