import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { axe } from "./support/axe.ts";
import { budgetSteps } from "./support/budget.ts";
import { freshChallengeToJudge as freshEvent } from "./support/judging.ts";
import { logins, signedInPage, submitText } from "./support/login.ts";

const freshChallengeToJudge = (count: number) => freshEvent(sql, count);

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

const queueCount = (page: Page) => page.getByRole("heading", { name: /^Queue/ });
const current = (page: Page) => page.getByRole("heading", { level: 2, name: /—/ });

test.describe("the judging workspace", () => {
  test("a judge scores ten submissions in a row, one Enter each; the queue falls, and rises live when a team submits", async ({ browser }) => {
    // Steps: two sign-ins, the workspace, eleven saves each with the next page, the participant's gate page,
    // challenge page and post, the live rise.
    budgetSteps(30);
    const event = await freshChallengeToJudge(10);
    const judge = await signedInPage(browser, event.judge);
    await judge.goto(`/dashboard/judge?challenge=${event.challengeId}`);
    await expect(queueCount(judge)).toHaveText("Queue (10)");
    // The page must not reload for the live rise: a marker set now survives only a live update.
    await judge.evaluate(() => ((window as unknown as { marker: string }).marker = "same page"));

    for (let scored = 0; scored < 10; scored += 1) {
      await expect(current(judge)).toContainText(event.teams[scored]);
      await expect(judge.getByRole("heading", { name: "Hints" })).toBeVisible();
      // The score box has the focus: type, then one keystroke saves and opens the next.
      await expect(judge.getByLabel("Score (0 to 10)")).toBeFocused();
      await judge.keyboard.type(String(scored));
      await judge.keyboard.press("Enter");
      if (scored === 4) {
        // Halfway, a team sends an answer: the judge's queue counts it without a reload.
        await expect(queueCount(judge)).toHaveText("Queue (5)");
        const player = await signedInPage(browser, event.latecomer);
        await submitText(player, 2, event.title, `A late answer ${Date.now()}`);
        await player.context().close();
        await expect(queueCount(judge)).toHaveText("Queue (6)");
        expect(await judge.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same page");
      }
    }
    // The latecomer's answer is the last one; then nothing is left.
    await expect(current(judge)).toContainText(event.latecomerTeam);
    await expect(queueCount(judge)).toHaveText("Queue (1)");
    await judge.keyboard.type("7");
    await judge.keyboard.press("Enter");
    await expect(judge.getByText("Nothing left to score with these filters.")).toBeVisible();
    await expect(queueCount(judge)).toHaveCount(0);
    // Every score landed, as typed.
    const scores = await sql<Array<{ score_centi: number }>>`
      select sc.score_centi from submission_scores sc join submissions s on s.id = sc.submission_id
      where s.challenge_id = ${event.challengeId} order by s.revised_at, s.id`;
    expect(scores.map((row) => row.score_centi / 100)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 7]);
    // The history lists them, newest first.
    await expect(judge.getByRole("region", { name: "Your scores" }).getByRole("row")).toHaveCount(12);
    await judge.context().close();
  });

  test("keys move through the queue by their physical position: S skips, B goes back, E types the score", async ({ browser }) => {
    const event = await freshChallengeToJudge(3);
    const judge = await signedInPage(browser, event.judge);
    await judge.goto(`/dashboard/judge?challenge=${event.challengeId}`);
    await expect(current(judge)).toContainText(event.teams[0]);
    // The score box has the focus, and takes no letters: the keys work from there.
    await expect(judge.getByLabel("Score (0 to 10)")).toBeFocused();
    // The shortcuts listen once the page's scripts run (the box has the focus before: autofocus).
    await expect(judge.locator("html[data-hydrated]")).toHaveCount(1);
    // On an Arabic layout the S key types "س": its code is still KeyS.
    await judge.evaluate(() => document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "س", code: "KeyS", bubbles: true, cancelable: true })));
    await expect(current(judge)).toContainText(event.teams[1]);
    await judge.keyboard.press("KeyS");
    await expect(current(judge)).toContainText(event.teams[2]);
    await judge.keyboard.press("KeyB");
    await expect(current(judge)).toContainText(event.teams[1]);
    // In the comment a letter is text, not a shortcut; Esc leaves it, and E goes back to the score.
    await judge.getByLabel("Comment (optional)").click();
    await judge.keyboard.type("Solid");
    await expect(judge.getByLabel("Comment (optional)")).toHaveValue("Solid");
    await expect(current(judge)).toContainText(event.teams[1]);
    await judge.keyboard.press("Escape");
    await judge.keyboard.press("KeyE");
    await expect(judge.getByLabel("Score (0 to 10)")).toBeFocused();
    // The list of shortcuts is on the page.
    await expect(judge.getByText("skip to the next submission")).toBeVisible();
    await judge.context().close();
  });

  test("the sidebar's count of what is left rises live on any dashboard page when a team submits", async ({ browser }) => {
    const event = await freshChallengeToJudge(0);
    const judge = await signedInPage(browser, event.judge);
    await judge.goto("/dashboard/submissions");
    const count = judge.getByRole("navigation", { name: "Dashboard" }).locator(".dashboard__count [aria-hidden]");
    const before = Number(await count.textContent());
    const player = await signedInPage(browser, event.latecomer);
    await submitText(player, 2, event.title, `An answer ${Date.now()}`);
    await player.context().close();
    // Other tests submit meanwhile too: it rises by at least this one.
    await expect.poll(async () => Number(await count.textContent())).toBeGreaterThan(before);
    await judge.context().close();
  });

  test("without JavaScript a judge saves and lands on the next, told the score was saved", async ({ browser }) => {
    const event = await freshChallengeToJudge(2);
    const judge = await signedInPage(browser, event.judge, { javaScriptEnabled: false });
    await judge.goto(`/dashboard/judge?challenge=${event.challengeId}`);
    await expect(current(judge)).toContainText(event.teams[0]);
    await judge.getByLabel("Score (0 to 10)").fill("8.5");
    await judge.getByLabel("Comment (optional)").fill("Neat");
    await judge.getByRole("button", { name: /^Save and next/ }).click();
    // The page's own line, beside the toast's words that a browser without JavaScript shows below the bar.
    await expect(judge.getByRole("status").filter({ hasText: "Score saved:" })).toHaveText(`Score saved: 8.5 for ${event.teams[0]} on ${event.title}.`);
    await expect(judge.getByRole("status").filter({ hasText: /^Score saved$/ })).toBeVisible();
    await expect(current(judge)).toContainText(event.teams[1]);
    await judge.getByLabel("Score (0 to 10)").fill("10");
    await judge.getByRole("button", { name: /^Save/ }).click();
    await expect(judge.getByText("Nothing left to score with these filters.")).toBeVisible();
    await judge.context().close();
  });

  test("an image is shown in the page, and a PDF in the browser's viewer, from our own origin", async ({ browser }) => {
    const judge = await signedInPage(browser, logins.judge);
    const [banner] = await sql<Array<{ id: number }>>`
      select s.id from submissions s join teams t on t.id = s.team_id join challenges c on c.id = s.challenge_id
      where t.name = 'Kraken' and c.title = 'Banner of the Clan'`;
    await judge.goto(`/dashboard/judge?s=${banner.id}`);
    const image = judge.getByRole("img", { name: "The submitted image kraken-banner.png" });
    await expect(image).toBeVisible();
    expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(480);
    await expect(judge.getByRole("link", { name: /^Download kraken-banner\.png/ })).toBeVisible();

    const [reasoning] = await sql<Array<{ id: number }>>`
      select s.id from submissions s join teams t on t.id = s.team_id join challenges c on c.id = s.challenge_id
      where t.name = 'Basilisk' and c.title = 'Runes of Order'`;
    await judge.goto(`/dashboard/judge?s=${reasoning.id}`);
    const frame = judge.locator('iframe[title="The submitted PDF runes-reasoning.pdf"]');
    await expect(frame).toBeVisible();
    const answer = await judge.request.get((await frame.getAttribute("src"))!);
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toBe("application/pdf");
    expect(answer.headers()["content-disposition"]).toMatch(/^inline;/);
    expect(answer.headers()["x-content-type-options"]).toBe("nosniff");
    await judge.context().close();
  });

  test("the workspace has no serious or critical axe violation", async ({ browser }) => {
    const judge = await signedInPage(browser, logins.judge);
    await judge.goto("/dashboard/judge");
    await expect(judge.getByRole("heading", { level: 1, name: "Judging" })).toBeVisible();
    const results = await axe(judge).analyze();
    const bad = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
    expect(bad.map((violation) => `${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
    await judge.context().close();
  });
});
