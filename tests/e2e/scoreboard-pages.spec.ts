/**
 * /scoreboard above WHOLE_BOARD_MAX teams: a page at a time, the viewer's own team always shown, live. The
 * shared e2e event is small (its board is shown whole, as every other spec expects), so this file seeds a
 * big event of its own (the benchmarks' world: a database and a Redis prefix of its own) and starts its own
 * web process and worker on it, from the same production build.
 */
import { expect, test, type Browser } from "@playwright/test";
import postgres from "postgres";
import { createBenchWorld } from "../../bench/lib/env.ts";
import { startWeb, startWorker, stopChildren, type WebProcess } from "../../bench/lib/servers.ts";
import { cookiesFor, seedWorld, type World } from "../../bench/lib/world.ts";
import { closeDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { closeQueues } from "../../app/infrastructure/queue.server.ts";
import { closeRedis } from "../../app/infrastructure/redis.server.ts";
import { BOARD_PAGE_SIZE as PAGE } from "../../app/modules/standings/scoreboard.server.ts";

const PORT = Number(process.env.E2E_PORT ?? 3105) + 40;
const TEAMS = 260;
const PAGES = Math.ceil(TEAMS / PAGE);
/** "Teams 1–50 of 260 · page 1 of 6": the board's page line, as it reads in English. */
const pageLine = (page: number) => `Teams ${(page - 1) * PAGE + 1}–${Math.min(page * PAGE, TEAMS)} of ${TEAMS} · page ${page} of ${PAGES}`;

test.describe.configure({ mode: "serial" });
// Seeding 260 teams and starting a web process and a worker of its own, on a machine shared with other runs.
test.describe.configure({ timeout: 120_000 });

let world: Awaited<ReturnType<typeof createBenchWorld>>;
let seeded: World;
let web: WebProcess;
let sql: postgres.Sql;
const savedEnv = { ...process.env };

test.beforeAll(async () => {
  // A hook outside a describe keeps the project's 30 s, not the file's: seeding and two process starts (each readying its
  // Postgres connections first, docs/decisions/053-connections-kept-ready.md) took longer on a busy CI machine.
  test.setTimeout(120_000);
  world = await createBenchWorld("e2e_pages");
  seeded = await seedWorld({ teams: TEAMS, membersPerTeam: 1, challenges: 8, judges: 1, submissionsPerTeam: 2 });
  web = await startWeb(world.env, PORT);
  await startWorker(world.env);
  sql = postgres(world.env.DATABASE_URL, { max: 1, onnotice: () => {} });
});

test.afterAll(async () => {
  await stopChildren();
  await Promise.allSettled([sql?.end(), closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
  await world?.drop();
  process.env = savedEnv;
});

/** The team at a rank (from the feed, as a judge sees it) and its participant's page. */
async function teamAtRank(rank: number) {
  const judge = seeded.judgeIds[0];
  const cookie = (await cookiesFor([judge])).get(judge)!;
  const board = (await (await fetch(`${web.url}/api/v1/scoreboard?offset=${rank - 1}&limit=1`, { headers: { Cookie: cookie } })).json()) as { teams: Array<{ id: number; name: string }> };
  const team = board.teams[0];
  const member = seeded.participants.find((participant) => participant.teamId === team.id)!;
  return { ...team, cookie: (await cookiesFor([member.id])).get(member.id)!, judgeCookie: cookie };
}

async function pageAs(browser: Browser, cookie: string, javaScriptEnabled = true) {
  const context = await browser.newContext({ javaScriptEnabled, extraHTTPHeaders: { Cookie: cookie } });
  return context.newPage();
}

test("without JavaScript: a page of teams at a time, the own team under the first page, the pages linked", async ({ browser }) => {
  // In the middle of the third page.
  const ownRank = 2 * PAGE + Math.ceil(PAGE / 2);
  const own = await teamAtRank(ownRank);
  const page = await pageAs(browser, own.cookie, false);
  await page.goto(`${web.url}/scoreboard`);
  const rows = page.locator(".scoreboard__row");
  // The page's teams and the own team with two teams either side.
  await expect(rows).toHaveCount(PAGE + 5);
  await expect(page.getByText(pageLine(1))).toBeVisible();
  const ownRow = page.getByRole("row", { name: new RegExp(`${own.name} \\(your team\\)`) });
  await expect(ownRow.locator(".scoreboard__position")).toHaveText(String(ownRank));

  await page.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText(pageLine(2))).toBeVisible();
  await expect(rows).toHaveCount(PAGE + 5);
  await expect(rows.first().locator(".scoreboard__position")).toHaveText(String(PAGE + 1));
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page.getByText(pageLine(3))).toBeVisible();
  // The own team on this page: its row once, no neighbourhood apart.
  await expect(rows).toHaveCount(PAGE);
  await expect(ownRow).toHaveCount(1);
  await page.getByRole("link", { name: "Last" }).click();
  await expect(page.getByText(pageLine(PAGES))).toBeVisible();
  // The own team, on a page before this one, is shown above it with its neighbours, then the page.
  await expect(rows.first().locator(".scoreboard__position")).toHaveText(String(ownRank - 2));
  await expect(ownRow.locator(".scoreboard__position")).toHaveText(String(ownRank));
  await expect(rows.nth(5).locator(".scoreboard__position")).toHaveText(String((PAGES - 1) * PAGE + 1));
  await page.getByRole("link", { name: /Your team's page \(3\)/ }).click();
  await expect(page.getByText(pageLine(3))).toBeVisible();
  await page.context().close();
});

test("live: a score that lifts the own team onto the first page moves it there without a reload", async ({ browser }) => {
  const own = await teamAtRank(PAGE + 1);
  const page = await pageAs(browser, own.cookie);
  // The rows come from the server's markup cache (app/hooks/markup-cache.ts): the browser hydrates them
  // without a mismatch (production React reports one as an error) and then renders them itself.
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto(`${web.url}/scoreboard`);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  const ownRow = page.getByRole("row", { name: new RegExp(`${own.name} \\(your team\\)`) });
  await expect(ownRow.locator(".scoreboard__position")).toHaveText(String(PAGE + 1));
  await expect(page.locator(".scoreboard__gap")).toHaveCount(1);
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = "same page"));
  // The socket is connected: the update will reach the page.
  await expect(page.locator(".live-indicator--on")).toBeVisible();

  // A judge raises every submission of the team to full marks (its challenge's points).
  const submissions = await sql<Array<{ id: number; points: number }>>`select s.id, c.points from submissions s join challenges c on c.id = s.challenge_id where s.team_id = ${own.id}`;
  for (const { id, points } of submissions) {
    const answer = await fetch(`${web.url}/api/v1/submissions/${id}/score`, {
      method: "PUT",
      headers: { Cookie: own.judgeCookie, Origin: web.url, "Content-Type": "application/json" },
      body: JSON.stringify({ score: points, comment: "full marks" }),
    });
    expect(answer.status).toBe(200);
  }
  // Within the page's re-read (at most 3 s after the update): on the first page, no gap, a page of rows.
  await expect(page.locator(".scoreboard__gap")).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator(".scoreboard__row")).toHaveCount(PAGE);
  await expect(ownRow).toHaveCount(1);
  const position = ownRow.locator(".scoreboard__position");
  // Its new rank: a number on the first page, or a medal (no number).
  if (await position.count()) expect(Number(await position.textContent())).toBeLessThanOrEqual(PAGE);
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same page");
  expect(errors).toEqual([]);
  await page.context().close();
});
