/**
 * A player answers a flag challenge (docs/domain.md "Flag challenges") and reads the verdict at once: with
 * JavaScript (a fetcher: no reload, the focus kept, the verdict in a live region) and without (a plain
 * post: the page comes back with the verdict and what was typed). Solved, the gate's card says so.
 */
import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { messages } from "../../app/modules/messages.ts";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { axe } from "./support/axe.ts";
import { logins, signedInPage } from "./support/login.ts";
import { freshTeam } from "./support/teams.ts";

// One client per run of the file's hooks: in parallel mode a worker may run this file's afterAll, then another
// of its tests (a client ended once would be ended for that test).
let sql: postgres.Sql;
test.beforeAll(() => {
  sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
});
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

/** A flag challenge of its own in the demo's gate 3 (open), answered by `flag`, at most 3 wrong answers (`wrongPerMinute` a minute). */
async function flagChallenge(flag: string, wrongPerMinute: number | null = null) {
  const title = `Hidden Flag ${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const [row] = await sql<Array<{ id: number }>>`
    insert into challenges (title, description, points, category, wave, checking, max_attempts, wrong_per_minute)
    values (${title}, 'Find the flag.', 120, 'CS', 3, 'flag', 3, ${wrongPerMinute}) returning id`;
  await sql`insert into challenge_flags (challenge_id, position, kind, value) values (${row.id}, 1, 'exact', ${flag})`;
  return { id: row.id, title };
}

const answerBox = (page: Page) => page.getByRole("textbox", { name: "Flag" });
const submit = (page: Page) => page.getByRole("button", { name: "Submit flag" });

test.describe("a flag challenge", () => {
  test.describe.configure({ mode: "parallel" });

  test("with JavaScript: the verdict without a reload, the typed answer and the focus kept, then solved", async ({ browser }) => {
    const team = await freshTeam(sql, "Kestrel");
    const challenge = await flagChallenge("GK{js_route}");
    const page = await signedInPage(browser, team.member);
    await page.goto(`/submition/${challenge.id}`);
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    // A mark on the window: a reload would lose it.
    await page.evaluate(() => ((window as unknown as { unreloaded: boolean }).unreloaded = true));
    await expect(page.getByText("3 attempts left.", { exact: true })).toBeVisible();

    await answerBox(page).fill("GK{wrong}");
    await answerBox(page).press("Enter");
    await expect(page.getByText(messages.flags.incorrectAttemptsLeft(2))).toBeVisible();
    await expect(page.getByText("2 attempts left.", { exact: true })).toBeVisible();
    await expect(answerBox(page)).toHaveValue("GK{wrong}");
    await expect(answerBox(page)).toBeFocused();

    await answerBox(page).fill("GK{js_route}");
    await submit(page).click();
    await expect(page.getByText(messages.flags.correct(120))).toBeVisible();
    await expect(page.getByText("Solved", { exact: true })).toBeVisible();
    await expect(answerBox(page)).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded)).toBe(true);

    await page.goto("/gate/3");
    const card = page.getByRole("listitem").filter({ hasText: challenge.title });
    await expect(card).toHaveClass(/challenge-card--solved/);
    await expect(card.locator("dt", { hasText: /^Solved$/ }).locator("xpath=following-sibling::dd[1]")).toHaveText("Yes");
    await page.context().close();
  });

  test("without JavaScript: the page comes back with the verdict and what was typed, then solved", async ({ browser }) => {
    const team = await freshTeam(sql, "Plover");
    const challenge = await flagChallenge("GK{no_js_route}");
    const page = await signedInPage(browser, team.member, { javaScriptEnabled: false });
    await page.goto(`/submition/${challenge.id}`);
    await answerBox(page).fill("GK{typo}");
    await submit(page).click();
    await expect(page.getByText(messages.flags.incorrectAttemptsLeft(2))).toBeVisible();
    await expect(answerBox(page)).toHaveValue("GK{typo}");

    await answerBox(page).fill("GK{no_js_route}");
    await submit(page).click();
    await expect(page.getByText(messages.flags.correct(120))).toBeVisible();
    await expect(page.getByText("Solved", { exact: true })).toBeVisible();
    await expect(answerBox(page)).toHaveCount(0);
    await page.context().close();
  });

  test("with JavaScript: a wait counts down and gives the button back", async ({ browser }) => {
    const team = await freshTeam(sql, "Curlew");
    const challenge = await flagChallenge("GK{patience}", 1);
    const page = await signedInPage(browser, team.member);
    await page.clock.install();
    await page.goto(`/submition/${challenge.id}`);
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await answerBox(page).fill("GK{hasty}");
    await submit(page).click();
    await expect(page.getByText(messages.flags.incorrectWait(60))).toBeVisible();
    await expect(page.getByRole("timer")).toHaveText("You can answer again in 60 seconds.");
    await expect(submit(page)).toBeDisabled();
    // The server's minute passes too (the page may read the team's state again meanwhile: it is the server's word).
    await sql`update flag_attempts set at = at - interval '2 minutes' where team_id = ${team.id}`;
    await sql`update flag_tries set recent = array(select r - interval '2 minutes' from unnest(recent) with ordinality u(r, i) order by i) where team_id = ${team.id}`;
    await page.clock.runFor(61_000);
    await expect(page.getByRole("timer")).toHaveCount(0);
    await expect(submit(page)).toBeEnabled();
    await page.context().close();
  });

  test("the answer form and a refusal have no serious or critical axe violations", async ({ browser }) => {
    const team = await freshTeam(sql, "Dunlin");
    const challenge = await flagChallenge("GK{accessible}");
    const page = await signedInPage(browser, team.member);
    await page.goto(`/submition/${challenge.id}`);
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await answerBox(page).fill("GK{nope}");
    await submit(page).click();
    await expect(page.getByText(messages.flags.incorrectAttemptsLeft(2))).toBeVisible();
    const results = await axe(page).analyze();
    const bad = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
    expect(bad.map((violation) => `${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
    await page.context().close();
  });

  test("a judge, who has no team, reads the challenge but has no answer box", async ({ browser }) => {
    const challenge = await flagChallenge("GK{judges_look}");
    const page = await signedInPage(browser, logins.judge);
    await page.goto(`/submition/${challenge.id}`);
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await expect(page.getByText("You need a team to answer.")).toBeVisible();
    await expect(answerBox(page)).toHaveCount(0);
    await page.context().close();
  });
});
