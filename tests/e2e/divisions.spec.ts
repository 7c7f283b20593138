import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { nameColumns } from "../../app/modules/names/names.ts";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { budgetSteps } from "./support/budget.ts";
import { freshChallengeToJudge } from "./support/judging.ts";
import { logins, signedInPage, signIn } from "./support/login.ts";

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

/** Marks teams for the worker to recompute (their standing, division included), as the app's own changes do. */
async function recompute(teamIds: number[]) {
  for (const id of teamIds) {
    await sql`insert into standings_outbox (team_id) values (${id})
      on conflict (team_id) do update set version = nextval('standings_outbox_version_seq'), requested_at = now()`;
  }
}

async function saveDivisions(admin: Page, list: string) {
  await admin.goto("/dashboard/settings");
  await admin.getByLabel("Divisions", { exact: true }).fill(list);
  await admin.getByRole("button", { name: "Save divisions" }).click();
  await expect(admin.getByText(/^Divisions saved/)).toBeVisible();
}

async function putInDivision(admin: Page, teamId: number, division: string) {
  await admin.goto(`/dashboard/teams?edit=${teamId}`);
  await admin.getByLabel("Division", { exact: true }).selectOption(division);
  await admin.getByRole("button", { name: "Save changes" }).click();
  await expect(admin.getByText("تم تعديل الفريق بنجاح")).toBeVisible();
}

test.describe("divisions", () => {
  test("an admin puts teams in divisions; a division's board lists only them, ranked 1..n with medals, moves live, and filters without JavaScript", { tag: "@event-wide" }, async ({ browser }) => {
    // Steps: three sign-ins, the settings (twice, and twice more to restore), three team edits, the division
    // board, the live move, a filter click, the no-JavaScript board and its filter link, the judge's score.
    budgetSteps(24);
    // Three fresh teams with an answer each to a challenge of their own (and one more without), named by this run.
    const fresh = await freshChallengeToJudge(sql, 3);
    const ids = new Map((await sql<Array<{ id: number; name: string }>>`select id, name from teams where name = any(${fresh.teams})`).map((row) => [row.name, row.id]));
    const [first, second, third, latecomer] = fresh.teams;
    await recompute([...ids.values()]);
    const suffix = fresh.stamp.slice(-6);
    const student = `Student ${suffix}`;
    const open = `Open ${suffix}`;

    const admin = await signedInPage(browser, logins.admin);
    await admin.goto("/dashboard/settings");
    const before = await admin.getByLabel("Divisions", { exact: true }).inputValue();
    try {
      await saveDivisions(admin, [before, student, open].filter(Boolean).join("\n"));
      await putInDivision(admin, ids.get(first)!, student);
      await putInDivision(admin, ids.get(second)!, student);
      await putInDivision(admin, ids.get(third)!, open);
      await expect(admin.getByRole("row", { name: new RegExp(third) })).toContainText(open);

      // A participant (of the team in no division) watches the Student board.
      const member = await signedInPage(browser, fresh.latecomer);
      await member.goto(`/scoreboard?division=${encodeURIComponent(student)}`);
      const board = member.getByRole("table", { name: `${student}: teams ranked by total points` });
      await expect(board.locator("tbody tr")).toHaveCount(2);
      await expect(board.getByRole("row", { name: new RegExp(third) })).toHaveCount(0);
      await expect(board.getByRole("row", { name: new RegExp(latecomer) })).toHaveCount(0);
      // Both at 0: the first team was made first, so it reached 0 first (then the lower id): 1st and 2nd.
      const firstRow = board.getByRole("row", { name: new RegExp(first) });
      const secondRow = board.getByRole("row", { name: new RegExp(second) });
      await expect(firstRow.getByRole("img", { name: "1st place, gold medal" })).toBeVisible();
      await expect(secondRow.getByRole("img", { name: "2nd place, silver medal" })).toBeVisible();
      await expect(member.getByRole("navigation", { name: "Divisions" }).getByRole("link", { name: student })).toHaveAttribute("aria-current", "page");
      await member.evaluate(() => ((window as unknown as { marker: string }).marker = "same page"));

      // A judge scores the second team: it takes first place on the Student board, live.
      const judge = await signedInPage(browser, fresh.judge);
      await judge.goto("/dashboard/submissions");
      const row = judge.locator("tr", { hasText: "Answer number 2" }).filter({ hasText: fresh.title });
      await row.getByLabel(/Score \(0 to 10\)/).fill("7");
      await row.getByRole("button", { name: "Send" }).click();
      await expect(judge.getByText("Score saved")).toBeVisible();
      await judge.context().close();

      await expect(board.locator("tbody tr").first()).toContainText(second);
      await expect(secondRow.getByRole("img", { name: "1st place, gold medal" })).toBeVisible();
      await expect(secondRow.locator(".scoreboard__total")).toHaveText("7");
      await expect(firstRow.getByRole("img", { name: "2nd place, silver medal" })).toBeVisible();
      await expect(board.locator("tbody tr")).toHaveCount(2);
      expect(await member.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same page");

      // The filter moves to the Open board without a reload.
      await member.getByRole("navigation", { name: "Divisions" }).getByRole("link", { name: open }).click();
      const openBoard = member.getByRole("table", { name: `${open}: teams ranked by total points` });
      await expect(openBoard.locator("tbody tr")).toHaveCount(1);
      await expect(openBoard.getByRole("row", { name: new RegExp(third) }).getByRole("img", { name: "1st place, gold medal" })).toBeVisible();
      expect(await member.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same page");
      await member.context().close();

      // Without JavaScript the filter is plain links.
      const plain = await signedInPage(browser, logins.participant, { javaScriptEnabled: false });
      await plain.goto("/scoreboard");
      await plain.getByRole("navigation", { name: "Divisions" }).getByRole("link", { name: student }).click();
      await expect(plain).toHaveURL(/division=Student/);
      await expect(plain.getByRole("table", { name: `${student}: teams ranked by total points` }).locator("tbody tr")).toHaveCount(2);
      await plain.context().close();
    } finally {
      // Put the event back: these teams out of the run's divisions, then the list as it was.
      await sql`update teams set division = null where id = any(${[...ids.values()]})`;
      await recompute([...ids.values()]);
      await saveDivisions(admin, before);
      await admin.context().close();
    }
  });

  test("the team size cap: the Users page refuses a member past it with its message, keeping what was typed", async ({ page }) => {
    const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const [{ cap }] = await sql<Array<{ cap: number }>>`select team_size_cap as cap from event_settings where id = 1`;
    const team = nameColumns(`Full House ${stamp}`);
    const [row] = await sql<Array<{ id: number }>>`insert into teams (name, name_key) values (${team.name}, ${team.nameKey}) returning id`;
    for (let index = 0; index < cap; index++) {
      const member = nameColumns(`full.${stamp}.${index}`);
      await sql`insert into users (name, name_key, role, password_hash, team_id)
        select ${member.name}, ${member.nameKey}, 'participant', password_hash, ${row.id} from users where name = ${logins.participant.name}`;
    }

    await signIn(page, logins.admin);
    await page.goto("/dashboard/users");
    const userName = `one-too-many-${stamp}`;
    await page.getByLabel("Name").fill(userName);
    await page.getByRole("textbox", { name: /^Password/ }).fill("one-too-many-password");
    await page.getByLabel("Role").selectOption("participant");
    await page.getByLabel("Team").selectOption({ label: team.name });
    await page.getByRole("button", { name: "Add user" }).click();
    const refusal = `${team.name} is full: a team has at most ${cap} members (Settings → Team size). Choose another team.`;
    await expect(page.locator("#user-new").getByText(refusal)).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue(userName);
    const [{ members }] = await sql<Array<{ members: number }>>`select count(*)::int as members from users where team_id = ${row.id}`;
    expect(members).toBe(cap);

    // The Teams page says so too.
    await page.goto("/dashboard/teams");
    await expect(page.getByRole("row", { name: new RegExp(team.name) })).toContainText(`${cap} (full)`);
  });
});
