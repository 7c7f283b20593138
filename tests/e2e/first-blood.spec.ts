/**
 * First blood (docs/domain.md "First blood"): a team's first solve of a flag challenge pops up on another
 * player's screen at once (the popup every screen has, under its own title), and the scoreboard's row details
 * mark the solver's first-three solves, live (the page re-reads) and in the page as served (without JavaScript).
 * Event-wide: the popup reaches every signed-in screen.
 */
import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { signedInPage } from "./support/login.ts";
import { freshTeam } from "./support/teams.ts";

let sql: postgres.Sql;
test.beforeAll(() => {
  sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
});
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

test("a first blood pops up on another player's screen and marks the solver's row on the scoreboard", { tag: "@event-wide" }, async ({ browser }) => {
  const solver = await freshTeam(sql, "Osprey");
  const watcher = await freshTeam(sql, "Heron");
  const flag = `GK{first_${Date.now()}}`;
  const title = `Blood Trail ${Date.now()}`;
  const [challenge] = await sql<Array<{ id: number }>>`
    insert into challenges (title, description, points, category, wave, checking)
    values (${title}, 'Be the first.', 150, 'CS', 3, 'flag') returning id`;
  await sql`insert into challenge_flags (challenge_id, position, kind, value) values (${challenge.id}, 1, 'exact', ${flag})`;

  const watching = await signedInPage(browser, watcher.member);
  await watching.goto("/scoreboard");
  await expect(watching.locator("html")).toHaveAttribute("data-hydrated", "true");
  // A team made by SQL joins the board with its first points (the solve).
  const solverRow = watching.getByRole("row").filter({ has: watching.getByRole("rowheader", { name: new RegExp(solver.name) }) });
  await expect(solverRow).toHaveCount(0);

  const solving = await signedInPage(browser, solver.member);
  await solving.goto(`/submition/${challenge.id}`);
  await solving.getByRole("textbox", { name: "Flag" }).fill(flag);
  await solving.getByRole("button", { name: "Submit flag" }).click();
  await expect(solving.getByText("Solved", { exact: true })).toBeVisible();

  // On the other player's screen, at once: the popup, titled, naming the team and the challenge.
  const popup = watching.getByRole("region", { name: "First blood" });
  // The names as the sentence isolates them (U+2068 … U+2069: each takes its own direction).
  await expect(popup).toContainText(`\u2068${solver.name}\u2069 solved \u2068${title}\u2069 first.`);
  // The scoreboard re-read: the solver's row details mark its first blood.
  const details = solverRow.getByText("Among the first three on 1 challenge");
  await expect(details).toBeVisible();
  await details.click();
  await expect(solverRow.getByRole("listitem")).toHaveText(`First blood ${title}`);
  await popup.getByRole("button", { name: "Close" }).click();
  await expect(popup).toBeHidden();

  // The page as served, without JavaScript: the details are there, a disclosure that opens by itself.
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: await watching.context().storageState() });
  const plain = await noScript.newPage();
  await plain.goto("/scoreboard");
  const plainRow = plain.getByRole("row").filter({ has: plain.getByRole("rowheader", { name: new RegExp(solver.name) }) });
  await plainRow.getByText("Among the first three on 1 challenge").click();
  await expect(plainRow.getByRole("listitem")).toHaveText(`First blood ${title}`);

  await noScript.close();
  await solving.context().close();
  await watching.context().close();
});
