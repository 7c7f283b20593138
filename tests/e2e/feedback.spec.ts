import { mkdirSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { nameColumns } from "../../app/modules/names/names.ts";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { logins, signedInPage } from "./support/login.ts";

/**
 * Judging feedback returned to teams (docs/domain.md "Feedback to teams"): an admin publishes a gate's, and
 * the team's submission page for a challenge of that gate shows the criteria, the judges' scores and
 * comments (by number, never by name) and the mean; another gate's stays hidden. Publishing is event-wide
 * (every team's page of that gate changes): these tests run one at a time, and put it back after each.
 */
const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterEach(async () => {
  await sql`update event_settings set feedback_gates = '{}' where id = 1`;
});
// Every team's gate progress counts the gate's active challenges: the ones made here leave no active
// challenge behind for the tests that count a gate's share (participant-screens.spec.ts).
test.afterAll(async () => {
  await sql`update challenges set status = 'inactive' where title like 'Feedback rubric %' or title like 'Feedback plain %'`;
  await sql.end({ timeout: 5 });
});

const SHOTS = ".local/test-results/feedback";

/**
 * A fresh team and member, two fresh judges, and two scored answers of the team: a rubric challenge in gate 2
 * (both judges, one comment each) and a plain one in gate 1 (one judge). Made by SQL, as the scoring path
 * would leave them: the scores, the criterion scores, the mean and the status.
 */
async function scoredTeam() {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const [hashes] = await sql<Array<{ judge: string; participant: string }>>`
    select (select password_hash from users where name = ${logins.judge.name}) as judge,
           (select password_hash from users where name = ${logins.participant.name}) as participant`;
  const teamName = nameColumns(`Feedback team ${stamp}`);
  const [team] = await sql<Array<{ id: number }>>`insert into teams (name, name_key) values (${teamName.name}, ${teamName.nameKey}) returning id`;
  const member = nameColumns(`feedback.${stamp}`);
  const [user] = await sql<Array<{ id: number }>>`
    insert into users (name, name_key, role, password_hash, team_id) values (${member.name}, ${member.nameKey}, 'participant', ${hashes.participant}, ${team.id}) returning id`;
  const judges: Array<{ id: number; name: string }> = [];
  for (const word of ["Alder", "Briar"]) {
    const judge = nameColumns(`${word} judge ${stamp}`);
    const [row] = await sql<Array<{ id: number }>>`insert into users (name, name_key, role, password_hash) values (${judge.name}, ${judge.nameKey}, 'judge', ${hashes.judge}) returning id`;
    judges.push({ id: row.id, name: judge.name });
  }

  const rubricTitle = `Feedback rubric ${stamp}`;
  const [rubric] = await sql<Array<{ id: number }>>`
    insert into challenges (title, description, points, category, wave) values (${rubricTitle}, 'Explain your design.', 10, 'GD', 2) returning id`;
  const criteria = await sql<Array<{ id: number }>>`
    insert into challenge_criteria (challenge_id, position, name, weight, max_points)
    values (${rubric.id}, 0, 'Correctness', 2, 5), (${rubric.id}, 1, 'Clarity of the write-up', 1, 10) returning id`;
  // Judge scores: Briar first (8: 5/5 and 4/10), then Alder (7.67: 4/5 and 7/10); the mean 7.84.
  const [rubricSubmission] = await sql<Array<{ id: number }>>`
    insert into submissions (team_id, challenge_id, user_id, text, status, score_centi, scored_at, revised_at)
    values (${team.id}, ${rubric.id}, ${user.id}, 'Our design answer', 'reviewed', 784, now(), now() - interval '1 hour') returning id`;
  const comments = {
    first: `The diagram made the data flow clear; name the failure cases next time. (${stamp})`,
    second: `Correct, but the write-up skips why the cache is safe. (${stamp})`,
    gateOne: `Gate one remark that stays unpublished (${stamp})`,
  };
  for (const [judge, score, comment, given] of [
    [judges[1], 800, comments.first, [500, 400]],
    [judges[0], 767, comments.second, [400, 700]],
  ] as const) {
    const [row] = await sql<Array<{ id: number }>>`
      insert into submission_scores (submission_id, judge_id, score_centi, comment) values (${rubricSubmission.id}, ${judge.id}, ${score}, ${comment}) returning id`;
    await sql`insert into criterion_scores (submission_score_id, criterion_id, score_centi)
      values (${row.id}, ${criteria[0].id}, ${given[0]}), (${row.id}, ${criteria[1].id}, ${given[1]})`;
  }

  const plainTitle = `Feedback plain ${stamp}`;
  const [plain] = await sql<Array<{ id: number }>>`
    insert into challenges (title, description, points, category, wave) values (${plainTitle}, 'Solve it.', 20, 'PS', 1) returning id`;
  const [plainSubmission] = await sql<Array<{ id: number }>>`
    insert into submissions (team_id, challenge_id, user_id, text, status, score_centi, scored_at, revised_at)
    values (${team.id}, ${plain.id}, ${user.id}, 'Our gate one answer', 'reviewed', 1500, now(), now() - interval '1 hour') returning id`;
  await sql`insert into submission_scores (submission_id, judge_id, score_centi, comment) values (${plainSubmission.id}, ${judges[0].id}, 1500, ${comments.gateOne})`;

  return { member: { name: member.name, password: logins.participant.password }, judges, rubric: { id: rubric.id, title: rubricTitle }, plain: { id: plain.id, title: plainTitle }, comments };
}

type Team = Awaited<ReturnType<typeof scoredTeam>>;

const feedbackCard = (page: Page) => page.getByRole("region", { name: "Judging feedback" });

/** Nothing of the feedback on the page, in its HTML or in its data (`.data`, what a client navigation reads). */
async function expectNoFeedback(page: Page, team: Team, challengeId: number) {
  await page.goto(`/submition/${challengeId}`);
  await expect(page.getByRole("heading", { name: "Your submission" })).toBeVisible();
  await expect(feedbackCard(page)).toHaveCount(0);
  const html = await page.content();
  const data = await (await page.request.get(`/submition/${challengeId}.data`)).text();
  for (const text of [html, data]) {
    for (const comment of Object.values(team.comments)) expect(text).not.toContain(comment);
    expect(text).not.toContain("Judge 1");
  }
}

test.describe("judging feedback", () => {
  test("an admin publishes gate 2's feedback: the team reads its criteria, judges' comments and mean there, not gate 1's", { tag: "@event-wide" }, async ({ browser }) => {
    const team = await scoredTeam();
    const player = await signedInPage(browser, team.member);
    await expectNoFeedback(player, team, team.rubric.id);

    const admin = await signedInPage(browser, logins.admin);
    await admin.goto("/dashboard/settings");
    await admin.getByRole("checkbox", { name: "publish feedback for gate 2" }).check();
    await admin.getByRole("button", { name: "Save judging feedback" }).click();
    await expect(admin.getByText("Judging feedback published for gate 2")).toBeVisible();
    await admin.context().close();

    await player.goto(`/submition/${team.rubric.id}`);
    const card = feedbackCard(player);
    await expect(card).toBeVisible();
    await expect(card.getByText("7.84")).toBeVisible();
    await expect(card.getByRole("row", { name: /Correctness/ })).toContainText("4.5 / 5");
    await expect(card.getByRole("row", { name: /Clarity of the write-up/ })).toContainText("5.5 / 10");
    const judges = card.getByRole("listitem");
    await expect(judges).toHaveCount(2);
    await expect(judges.nth(0)).toContainText("Judge 1");
    await expect(judges.nth(0)).toContainText("8 / 10");
    await expect(judges.nth(0)).toContainText(team.comments.first);
    await expect(judges.nth(1)).toContainText("Judge 2");
    await expect(judges.nth(1)).toContainText("7.67 / 10");
    await expect(judges.nth(1)).toContainText(team.comments.second);
    const html = await player.content();
    for (const judge of team.judges) expect(html).not.toContain(judge.name);

    // Gate 1's is not published: nothing of it.
    await expectNoFeedback(player, team, team.plain.id);

    // How it looks, wide and on a phone (no sideways scroll).
    mkdirSync(SHOTS, { recursive: true });
    await player.goto(`/submition/${team.rubric.id}`);
    await player.setViewportSize({ width: 1366, height: 900 });
    await expect(card).toBeVisible();
    await player.screenshot({ path: `${SHOTS}/submission-1366.png`, fullPage: true });
    await player.setViewportSize({ width: 390, height: 844 });
    await player.reload();
    await expect(card).toBeVisible();
    const width = await player.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(width.scroll).toBeLessThanOrEqual(width.client);
    await player.screenshot({ path: `${SHOTS}/submission-390.png`, fullPage: true });
    await player.context().close();
  });

  test.describe("without JavaScript", () => {
    test("the settings form publishes, and the team's page shows it", { tag: "@event-wide" }, async ({ browser }) => {
      const team = await scoredTeam();
      const admin = await signedInPage(browser, logins.admin, { javaScriptEnabled: false });
      await admin.goto("/dashboard/settings");
      const gateOne = admin.getByRole("checkbox", { name: "publish feedback for gate 1" });
      await expect(gateOne).not.toBeChecked();
      await expect(admin.getByText("Published now: no gate.")).toBeVisible();
      await gateOne.check();
      await admin.getByRole("button", { name: "Save judging feedback" }).click();
      await expect(admin).toHaveURL(/\/dashboard\/settings$/);
      await expect(admin.getByText("Published now: gate 1.")).toBeVisible();
      await expect(admin.getByRole("checkbox", { name: "publish feedback for gate 1" })).toBeChecked();
      expect((await sql<Array<{ gates: number[] }>>`select feedback_gates as gates from event_settings where id = 1`)[0].gates).toEqual([1]);
      await admin.context().close();

      const player = await signedInPage(browser, team.member, { javaScriptEnabled: false });
      await player.goto(`/submition/${team.plain.id}`);
      await expect(feedbackCard(player)).toContainText(team.comments.gateOne);
      await expect(feedbackCard(player)).toContainText("15 / 20");
      await expectNoFeedback(player, team, team.rubric.id);
      await player.context().close();
    });
  });
});
