import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { freshChallengeToJudge } from "./support/judging.ts";
import { logins, participant, signedInPage, submitText } from "./support/login.ts";

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

const original = [
  "def parse_scores(lines):",
  "    scores = {}",
  "    for line in lines:",
  "        name, value = line.split(',')",
  "        scores[name.strip()] = int(value)",
  "    return scores",
  "def best_player(scores):",
  "    ranked = sorted(scores.items(), key=lambda pair: pair[1], reverse=True)",
  "    return ranked[0][0] if ranked else None",
  "print(best_player(parse_scores(open('scores.csv').read().splitlines())))",
].join("\n");

/** The copy: names changed, the two functions swapped, a comment of its own. */
const planted = [
  "# our own work",
  "def top(table):",
  "    ordered = sorted(table.items(), key=lambda kv: kv[1], reverse=True)",
  "    return ordered[0][0] if ordered else None",
  "def read_table(rows):",
  "    table = {}",
  "    for row in rows:",
  "        who, pts = row.split(',')",
  "        table[who.strip()] = int(pts)",
  "    return table",
  "print(top(read_table(open('scores.csv').read().splitlines())))",
].join("\n");

test("a planted copy shows in the judge's workspace, and the admin confirms it into a penalty", async ({ browser }) => {
  // Two participants answer, a judge reads, an admin decides: four sessions in a row.
  test.slow();
  const event = await freshChallengeToJudge(sql, 1, { category: "CS" });
  // Both teams answer through the page: each version goes to the integrity worker.
  const first = await signedInPage(browser, participant(event.members[0]));
  await submitText(first, 2, event.title, original);
  await first.context().close();
  await expect
    .poll(async () => (await sql`select 1 from submission_prints p join submissions s on s.id = p.submission_id where s.challenge_id = ${event.challengeId}`).length, { timeout: 20_000 })
    .toBe(1);
  const copier = await signedInPage(browser, event.latecomer);
  await submitText(copier, 2, event.title, planted);
  await copier.context().close();
  await expect.poll(async () => (await sql`select 1 from integrity_signals where challenge_id = ${event.challengeId}`).length, { timeout: 20_000 }).toBe(1);

  // The judge, on either answer: the signal names the other team and its version, both texts side by side.
  const judge = await signedInPage(browser, event.judge);
  await judge.goto(`/dashboard/judge?challenge=${event.challengeId}`);
  const signals = judge.getByRole("region", { name: "Integrity signals" });
  await expect(signals.getByText(new RegExp(`^\\d+ % similar to (${event.teams[0]}|${event.latecomerTeam})'s version of`))).toBeVisible();
  await expect(signals.locator("mark").first()).toBeVisible();
  await expect(signals.getByText("# our own work")).toBeVisible();
  await expect(signals.getByText("def read_table(rows):")).toBeVisible();
  await judge.context().close();

  // The admin confirms it into a penalty for the copying team.
  const admin = await signedInPage(browser, logins.admin);
  await admin.goto(`/dashboard/signals?challenge=${event.challengeId}`);
  const item = admin.getByRole("listitem").filter({ hasText: event.latecomerTeam });
  await expect(item).toContainText("Similar answers");
  await item.getByLabel("Team penalised").selectOption({ label: event.latecomerTeam });
  await item.getByLabel("Points taken away").fill("15");
  await item.getByRole("button", { name: "Confirm and penalise" }).click();
  await expect(admin.getByText("Signal confirmed: the penalty is given")).toBeVisible();
  await expect(admin.getByText("No signal matches.")).toBeVisible();

  const awards = await sql<Array<{ points_centi: number; reason: string }>>`
    select a.points_centi, a.reason from awards a join teams t on t.id = a.team_id where t.name = ${event.latecomerTeam}`;
  expect(awards).toHaveLength(1);
  expect(awards[0].points_centi).toBe(-1500);
  expect(awards[0].reason).not.toContain(event.teams[0]);
  await admin.goto("/dashboard/audit");
  await expect(admin.locator("table").getByRole("cell", { name: "Integrity signal confirmed", exact: true }).first()).toBeVisible();
  await admin.context().close();
});
