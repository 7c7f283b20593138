import { expect, test, type Browser, type Page } from "@playwright/test";
import postgres from "postgres";
import { categoryLabel } from "../../app/components/participant/category.ts";
import type { TeamStanding } from "../../app/modules/realtime/events.ts";
import { categoryLeaders } from "../../app/modules/standings/category-leaders.ts";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { budgetSteps } from "./support/budget.ts";
import { freshChallengeToJudge } from "./support/judging.ts";
import { logins, participant, signedInPage } from "./support/login.ts";

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

const categories = ["AI", "CS", "PS", "GD"] as const;

/** Each fresh team's submission to the fresh challenge, by team name. */
async function submissionsOf(challengeId: number): Promise<Map<string, number>> {
  const rows = await sql<Array<{ id: number; team: string }>>`
    select s.id, t.name as team from submissions s join teams t on t.id = s.team_id where s.challenge_id = ${challengeId}`;
  return new Map(rows.map((row) => [row.team, row.id]));
}

/** A judge's score through the API, as the signed-in judge of this page (its session cookie, our Origin). */
async function score(judge: Page, submissionId: number | undefined, points: number) {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const response = await judge.request.put(`/api/v1/submissions/${submissionId}/score`, { data: { score: String(points) }, headers: { Origin: origin } });
  expect(response.status(), await response.text()).toBe(200);
}

/** The board this user's API call gets (the freeze rule applies to it as to the pages). */
async function apiBoard(page: Page): Promise<TeamStanding[]> {
  const response = await page.request.get("/api/v1/scoreboard");
  expect(response.status()).toBe(200);
  return ((await response.json()) as { teams: TeamStanding[] }).teams;
}

const rankOf = (board: TeamStanding[], name: string) => board.find((team) => team.name === name)?.rank ?? Number.NaN;

/** The rank /status shows ("#12") as a number; null for "—". */
async function shownRank(page: Page): Promise<number | null> {
  const text = (await page.locator(".status-card__rank strong").textContent()) ?? "";
  return /^#\d+$/.test(text) ? Number(text.slice(1)) : null;
}

const storedRank = (page: Page) => page.evaluate(() => window.localStorage.getItem("teamRank"));

/** One figure of the status card, by its term (User, Team, CS, AI, PS, GD, Total points). */
const fact = (page: Page, term: string) =>
  page
    .locator(".status-card__facts > div")
    .filter({ has: page.locator("dt").getByText(term, { exact: true }) })
    .locator("dd");

/**
 * Two fresh teams scored by a fresh judge (so both are on the board), and a member of the second (`mine`)
 * on /status. The first (`rival`) is older: at equal points it ranks ahead.
 */
async function rivalsOnStatus(browser: Browser, category: (typeof categories)[number], points: { rival: number; mine: number }) {
  const event = await freshChallengeToJudge(sql, 2, { category });
  const [rival, mine] = event.teams;
  const submissions = await submissionsOf(event.challengeId);
  const judge = await signedInPage(browser, event.judge);
  await score(judge, submissions.get(rival), points.rival);
  await score(judge, submissions.get(mine), points.mine);
  const member = await signedInPage(browser, participant(event.members[1]));
  await member.goto("/status");
  return { rival, mine, submissions, judge, member };
}

/** Set now, it survives only if the page is never reloaded. */
async function markPage(page: Page) {
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = "same page"));
}
const markerOf = (page: Page) => page.evaluate(() => (window as unknown as { marker?: string }).marker);

test.describe("/status, live", () => {
  test("a judge's scores move the team's points and rank on /status without a reload, and localStorage teamRank follows", async ({ browser }) => {
    // Steps: two sign-ins, /status, four scores, the live points, three rank agreements, two stored ranks, the logout.
    budgetSteps(14);
    // Both teams on the board, the member's behind its rival.
    const { rival, mine, submissions, judge, member } = await rivalsOnStatus(browser, "PS", { rival: 3, mine: 1 });
    await expect(fact(member, "Team")).toHaveText(mine);
    await expect(fact(member, "Total points")).toHaveText("1");
    // Other tests move the board meanwhile: each check waits for the page to agree with the server's board.
    await expect.poll(async () => (await shownRank(member)) === rankOf(await apiBoard(member), mine)).toBe(true);
    await expect.poll(async () => (await storedRank(member)) === String(await shownRank(member))).toBe(true);
    await markPage(member);

    // The team's own score: its points, and its rank ahead of the rival, without a reload.
    await score(judge, submissions.get(mine), 5);
    await expect(fact(member, "PS")).toHaveText("5");
    await expect(fact(member, "Total points")).toHaveText("5");
    await expect
      .poll(async () => {
        const board = await apiBoard(member);
        return (await shownRank(member)) === rankOf(board, mine) && rankOf(board, mine) < rankOf(board, rival);
      })
      .toBe(true);
    const ahead = (await shownRank(member))!;
    await expect.poll(async () => (await storedRank(member)) === String(await shownRank(member))).toBe(true);

    // The rival overtakes: no update names the member's team, yet its rank falls, live.
    await score(judge, submissions.get(rival), 8);
    await expect
      .poll(async () => {
        const board = await apiBoard(member);
        const shown = await shownRank(member);
        return shown === rankOf(board, mine) && rankOf(board, rival) < rankOf(board, mine) && shown! > ahead;
      })
      .toBe(true);
    await expect(fact(member, "Total points")).toHaveText("5");
    await expect.poll(async () => (await storedRank(member)) === String(await shownRank(member))).toBe(true);
    expect(await markerOf(member)).toBe("same page");
    // Signed out, the team's rank does not stay behind for the next person at this browser.
    await member.getByRole("button", { name: "Logout" }).click();
    await expect(member).toHaveURL(/\/$/);
    await expect.poll(() => storedRank(member)).toBeNull();
    await member.context().close();
    await judge.context().close();
  });

  test("a frozen board: /status keeps the frozen rank while another team overtakes, the team's own points stay live", { tag: "@event-wide" }, async ({ browser }) => {
    // Steps: three sign-ins, /status, four scores, the settings page twice with two posts, the live freeze,
    // the live overtaking, the live points, the live unfreeze; room for the unfreeze in `finally`.
    budgetSteps(22);
    // Before the freeze the member's team leads its rival.
    const { rival, mine, submissions, judge, member } = await rivalsOnStatus(browser, "CS", { rival: 1, mine: 5 });
    await expect(fact(member, "Total points")).toHaveText("5");
    await markPage(member);

    const admin = await signedInPage(browser, logins.admin);
    await admin.goto("/dashboard/settings");
    await admin.getByRole("button", { name: "Freeze the scoreboard" }).click();
    await expect(admin.getByText("The public scoreboard is frozen")).toBeVisible();
    try {
      // The page reads the board again when it freezes, without a reload.
      await expect(member.getByText("The scoreboard is frozen: the rank is the frozen one.")).toBeVisible();
      const frozenRank = rankOf(await apiBoard(member), mine);
      await expect.poll(() => shownRank(member)).toBe(frozenRank);
      await expect.poll(() => storedRank(member)).toBe(String(frozenRank));

      // The rival overtakes on the live board (the admin sees it) ...
      await score(judge, submissions.get(rival), 9);
      await expect.poll(async () => rankOf(await apiBoard(admin), rival) < rankOf(await apiBoard(admin), mine)).toBe(true);
      // ... and the team's own points move after it, through the same pipeline and socket: once they show,
      // anything the rival's score would have sent this page has arrived (a sentinel, not a sleep).
      await score(judge, submissions.get(mine), 6);
      await expect(fact(member, "CS")).toHaveText("6");
      await expect(fact(member, "Total points")).toHaveText("6");
      // Still the frozen rank, though the live one is worse now.
      expect(await shownRank(member)).toBe(frozenRank);
      expect(rankOf(await apiBoard(admin), mine)).toBeGreaterThan(frozenRank);
      expect(await storedRank(member)).toBe(String(frozenRank));
      expect(await markerOf(member)).toBe("same page");
    } finally {
      await admin.goto("/dashboard/settings");
      await admin.getByRole("button", { name: "Unfreeze the scoreboard" }).click();
      await expect(admin.getByText("The public scoreboard is live again")).toBeVisible();
    }
    // Unfrozen: the live rank, behind the rival, again without a reload.
    await expect(member.getByText("The scoreboard is frozen: the rank is the frozen one.")).toBeHidden();
    await expect
      .poll(async () => {
        const board = await apiBoard(member);
        return (await shownRank(member)) === rankOf(board, mine) && rankOf(board, rival) < rankOf(board, mine);
      })
      .toBe(true);
    expect(await markerOf(member)).toBe("same page");
    await member.context().close();
    await admin.context().close();
    await judge.context().close();
  });

  test('when the team\'s points cannot be read again, /status says "Failed to fetch submission scores" after 3 retries and still renders', async ({ browser }) => {
    // Steps: two sign-ins, a score, the scoreboard, three navigations to /status (up to four reads each), two toasts.
    budgetSteps(12);
    const event = await freshChallengeToJudge(sql, 1, { category: "GD" });
    const judge = await signedInPage(browser, event.judge);
    await score(judge, (await submissionsOf(event.challengeId)).get(event.teams[0]), 2);
    await judge.context().close();
    const member = await signedInPage(browser, participant(event.members[0]));
    await member.goto("/scoreboard");
    await expect(member.getByRole("row", { name: new RegExp(event.teams[0]) }).locator(".scoreboard__total")).toHaveText("2");

    // The status page's own data request (its clientLoader asks for this route alone) answers 500.
    let failed = 0;
    const failing = /\/status\.data\?(.*&)?_routes=routes%2F_app\.status(&|$)/;
    const fail = () =>
      member.route(failing, (route) => {
        failed += 1;
        return route.fulfill({ status: 500, contentType: "text/plain", body: "down" });
      });
    const toast = member.getByText("Failed to fetch submission scores");
    const statusLink = member.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Status" });

    // Opened from another page: it renders (who, which team) with no figures, and says why, after 1 + 3 reads
    // (at least: a live update that makes the page re-read restarts the navigation, reads included).
    await fail();
    await statusLink.click();
    await expect(toast).toBeVisible();
    expect(failed).toBeGreaterThanOrEqual(4);
    await expect(member.getByRole("heading", { level: 1, name: "Status" })).toBeVisible();
    await expect(fact(member, "User")).toHaveText(event.members[0]);
    await expect(fact(member, "Team")).toHaveText(event.teams[0]);
    await expect(fact(member, "GD")).toHaveText("—");
    await expect(fact(member, "Total points")).toHaveText("—");

    // The server answers again: the figures come.
    await member.unroute(failing);
    await statusLink.click();
    await expect(fact(member, "Total points")).toHaveText("2");
    const rank = await shownRank(member);
    expect(rank).not.toBeNull();

    // A re-read that fails keeps what the page showed, and says so again.
    const failedBefore = failed;
    await fail();
    await statusLink.click();
    await expect.poll(() => failed).toBeGreaterThanOrEqual(failedBefore + 4);
    await expect(toast).toBeVisible();
    await expect(fact(member, "GD")).toHaveText("2");
    await expect(fact(member, "Total points")).toHaveText("2");
    expect(await shownRank(member)).toBe(rank);
    await member.context().close();
  });
});

test.describe("the category top 3 on /scoreboard", () => {
  test("lists each category's leaders as the board ranks them, with medals, and a judge's score moves a team into them live", async ({ browser }) => {
    // Steps: two sign-ins, the scoreboard, the lists compared twice, the score, the live entry.
    budgetSteps(8);
    const event = await freshChallengeToJudge(sql, 1);
    const mine = event.teams[0];
    const viewer = await signedInPage(browser, participant(event.members[0]));
    // The category whose third place is lowest: the team enters its top 3 with 5 points more than that.
    const atStart = categoryLeaders(await apiBoard(viewer));
    const [category] = [...categories].sort((a, b) => (atStart[a][2]?.points ?? 0) - (atStart[b][2]?.points ?? 0));
    const points = Math.floor(atStart[category][2]?.points ?? 0) + 5;
    await sql`update challenges set category = ${category}, points = ${points} where id = ${event.challengeId}`;

    await viewer.goto("/scoreboard");
    const card = (key: (typeof categories)[number]) => viewer.getByRole("region", { name: `Top 3 in ${categoryLabel(key)}` });
    const shown = async () => Object.fromEntries(await Promise.all(categories.map(async (key) => [key, await card(key).locator(".category-leaders__team-name").allTextContents()])));
    const ranked = (board: TeamStanding[]) => {
      const leaders = categoryLeaders(board);
      return Object.fromEntries(categories.map((key) => [key, leaders[key].map((leader) => leader.name)]));
    };
    // The teams the server's board ranks (other tests score meanwhile: the two agree once settled).
    await expect.poll(async () => JSON.stringify(await shown()) === JSON.stringify(ranked(await apiBoard(viewer)))).toBe(true);
    await expect(card(category).getByText(mine)).toHaveCount(0);
    await markPage(viewer);

    const judge = await signedInPage(browser, event.judge);
    await score(judge, (await submissionsOf(event.challengeId)).get(mine), points);
    // In, live: its points, a medal as on the overall board, marked as the viewer's own team.
    const entry = card(category).getByRole("listitem").filter({ hasText: mine });
    await expect(entry.locator(".category-leaders__points")).toHaveText(String(points));
    await expect(entry.getByRole("img")).toHaveAttribute("alt", /^(1st|2nd|3rd) place, (gold|silver|bronze) medal$/);
    await expect(entry).toContainText("(your team)");
    await expect.poll(async () => JSON.stringify(await shown()) === JSON.stringify(ranked(await apiBoard(viewer)))).toBe(true);
    expect(await markerOf(viewer)).toBe("same page");
    await viewer.context().close();
    await judge.context().close();
  });
});
