import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { anotherJudge, freshChallengeToJudge } from "./support/judging.ts";
import { logins, signedInPage } from "./support/login.ts";

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
// The event-wide settings these tests change are put back after each, even one that timed out (a `finally`
// would run after the connection is closed).
test.afterEach(async () => {
  await sql`update event_settings set judges_per_submission = null, blind_judging = false where id = 1`;
});
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

const current = (page: Page) => page.getByRole("heading", { level: 2, name: /—/ });
const queueCount = (page: Page) => page.getByRole("heading", { name: /^Queue/ });

test.describe("how judging runs", () => {
  test("with one judge per submission, a second judge is not handed a claimed one, and a scored one leaves both queues", { tag: "@event-wide" }, async ({ browser }) => {
    const event = await freshChallengeToJudge(sql, 2);
    const second = await anotherJudge(sql, event.stamp);
    await sql`update event_settings set judges_per_submission = 1 where id = 1`;
    const alice = await signedInPage(browser, event.judge);
    await alice.goto(`/dashboard/judge?challenge=${event.challengeId}`);
    await expect(current(alice)).toContainText(event.teams[0]);
    const bob = await signedInPage(browser, second);
    await bob.goto(`/dashboard/judge?challenge=${event.challengeId}`);
    // Alice holds the first: Bob is handed the second, and his queue no longer lists the first.
    await expect(current(bob)).toContainText(event.teams[1]);
    await expect(queueCount(bob)).toHaveText("Queue (1)");

    await alice.keyboard.type("6");
    await alice.keyboard.press("Enter");
    // Bob holds the other one: nothing left for Alice.
    await expect(alice.getByText("Nothing left to score with these filters.")).toBeVisible();
    await bob.keyboard.type("9");
    await bob.keyboard.press("Enter");
    await expect(bob.getByText("Nothing left to score with these filters.")).toBeVisible();
    // Each was scored once: one judge a submission.
    const scores = await sql<Array<{ n: number }>>`
      select count(*)::int as n from submission_scores sc join submissions s on s.id = sc.submission_id
      where s.challenge_id = ${event.challengeId} group by s.id order by s.id`;
    expect(scores.map((row) => row.n)).toEqual([1, 1]);
    await alice.context().close();
    await bob.context().close();
  });

  test("blind judging hides team and member names from the judge", { tag: "@event-wide" }, async ({ browser }) => {
    const event = await freshChallengeToJudge(sql, 1);
    const admin = await signedInPage(browser, logins.admin);
    await admin.goto("/dashboard/settings");
    await admin.getByRole("checkbox", { name: /^Blind judging/ }).check();
    await admin.getByRole("button", { name: "Save judging settings" }).click();
    await expect(admin.getByText("Judging settings saved")).toBeVisible();

    const judge = await signedInPage(browser, event.judge);
    await judge.goto(`/dashboard/judge?challenge=${event.challengeId}`);
    await expect(current(judge)).toHaveText(new RegExp(`^Team [A-Z2-9]{6} — ${event.title}$`));
    await expect(judge.getByText("Blind judging: names are hidden")).toBeVisible();
    expect(await judge.content()).not.toContain(event.teams[0]);
    await judge.context().close();
    await admin.context().close();
  });

  test("a judge assigned to one category is handed only its submissions", async ({ browser }) => {
    const event = await freshChallengeToJudge(sql, 1, { category: "GD" });
    const admin = await signedInPage(browser, logins.admin);
    await admin.goto("/dashboard/judges");
    const form = admin.getByRole("form", { name: `Assignment of ${event.judge.name}` });
    await form.getByLabel("Design").check();
    await form.getByRole("button", { name: /^Save/ }).click();
    await expect(admin.getByText("Assignment saved")).toBeVisible();
    await expect(admin.getByRole("rowheader", { name: new RegExp(event.judge.name) })).toContainText("Scores GD");
    await admin.context().close();

    const judge = await signedInPage(browser, event.judge);
    await judge.goto("/dashboard/judge");
    // The backlog has nothing outside Design, and every submission in the queue is a Design one.
    const perCategory = judge.getByRole("list", { name: "Left to score per category" });
    for (const name of ["AI", "Cyber Security", "Problem Solving"]) await expect(perCategory.getByRole("link", { name: new RegExp(`^${name} 0$`) })).toBeVisible();
    const items = judge.locator(".judge__queue-item");
    await expect(items.first()).toBeVisible();
    for (const text of await items.allInnerTexts()) expect(text).toMatch(/· GD/);
    await judge.context().close();
  });

  test("a rubric challenge is scored per criterion, the score worked out beside the boxes", async ({ browser }) => {
    const event = await freshChallengeToJudge(sql, 1, {
      category: "GD",
      rubric: [
        { name: "Clarity", weight: 3, maxPoints: 5 },
        { name: "Craft", weight: 1, maxPoints: 10 },
      ],
    });
    const judge = await signedInPage(browser, event.judge);
    await judge.goto(`/dashboard/judge?challenge=${event.challengeId}`);
    const rubric = judge.getByRole("group", { name: "Rubric: a score for each criterion" });
    await expect(rubric.getByLabel("Clarity (0 to 5, weight 3)")).toBeFocused();
    await judge.keyboard.type("4");
    await rubric.getByLabel("Craft (0 to 10, weight 1)").fill("6");
    // 10 × (3 × 4/5 + 6/10) ÷ 4 = 7.5
    await expect(rubric.getByText("Score: 7.5 of 10.")).toBeVisible();
    await judge.keyboard.press("Enter");
    await expect(judge.getByRole("status").filter({ hasText: "Score saved: 7.5" }).first()).toBeVisible();
    const [row] = await sql<Array<{ score_centi: number }>>`select score_centi from submissions where challenge_id = ${event.challengeId}`;
    expect(row.score_centi).toBe(750);
    await judge.context().close();
  });
});
