import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { nameColumns } from "../../app/modules/names/names.ts";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { axe } from "./support/axe.ts";
import { budgetSteps } from "./support/budget.ts";
import { logins, signedInPage } from "./support/login.ts";

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

/** A team of its own with one member (the demo participants' password), so parallel tests never see it move. */
async function freshTeam() {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const team = nameColumns(`Laurel ${stamp}`);
  const member = nameColumns(`laurel.${stamp}`);
  const [row] = await sql<Array<{ id: number }>>`insert into teams (name, name_key) values (${team.name}, ${team.nameKey}) returning id`;
  await sql`insert into users (name, name_key, role, password_hash, team_id)
    select ${member.name}, ${member.nameKey}, 'participant', password_hash, ${row.id} from users where name = ${logins.participant.name}`;
  // On the board (0 points) once the worker's sweep recomputes it, as a team made on the dashboard would be.
  await sql`insert into standings_outbox (team_id) values (${row.id})`;
  // The sweep takes up to about 7 s (every 5 s, marks older than 2 s): a page opened before it has no row
  // for the team. Ready when the team has a standing and no recompute is still due.
  await expect
    .poll(
      async () => {
        const [state] = await sql<Array<{ standing: boolean; due: boolean }>>`
          select exists (select 1 from standings where team_id = ${row.id}) as standing,
                 exists (select 1 from standings_outbox where team_id = ${row.id}) as due`;
        return state.standing && !state.due;
      },
      { message: "the worker put the fresh team on the board", timeout: 20_000 },
    )
    .toBe(true);
  return { id: row.id, name: team.name, member: { name: member.name, password: logins.participant.password } };
}

let teamId: number | null = null;

// A test that fails half-way must not leave its points on the shared board (the chart follows the top 10):
// whatever award of its team still counts is revoked, and the team marked for the worker to recompute.
test.afterEach(async () => {
  if (teamId === null) return;
  const left = await sql`update awards set revoked_at = now() where team_id = ${teamId} and revoked_at is null returning id`;
  if (left.length) {
    await sql`insert into standings_outbox (team_id) values (${teamId})
      on conflict (team_id) do update set version = nextval('standings_outbox_version_seq'), requested_at = now()`;
  }
  teamId = null;
});

test.describe("awards", () => {
  test("an admin's award moves the team's status and the scoreboard live; revoking takes it back", async ({ browser }) => {
    // Steps: the worker's sweep (two), two sign-ins, the scoreboard, the awards page, the give, the live row,
    // /status, the revoke, the live row back, /status again, two axe analyses.
    budgetSteps(16);
    const team = await freshTeam();
    teamId = team.id;

    const member = await signedInPage(browser, team.member);
    await member.goto("/scoreboard");
    const row = member.getByRole("row", { name: new RegExp(team.name) });
    await expect(row).toContainText("(your team)");
    await expect(row.locator(".scoreboard__total")).toHaveText("0");

    const admin = await signedInPage(browser, logins.admin);
    await admin.goto("/dashboard/awards");
    await admin.getByLabel("Team", { exact: true }).selectOption({ label: team.name });
    await admin.getByLabel(/^Points/).fill("37.5");
    await admin.getByLabel("Category (optional)").selectOption("CS");
    await admin.getByLabel(/^Reason/).fill("Best demo of the night");
    await admin.getByRole("button", { name: "Give award" }).click();
    await expect(admin.getByText("Award given")).toBeVisible();
    const awardRow = admin.locator("tr", { hasText: team.name });
    await expect(awardRow).toContainText("+37.5");
    await expect(awardRow).toContainText("Best demo of the night");
    await expect(awardRow).toContainText("active");
    expect((await axe(admin).include(".dashboard__main").analyze()).violations).toEqual([]);

    // The member's scoreboard moves without a reload (teams:update), total and CS.
    await expect(row.locator(".scoreboard__total")).toHaveText("37.5");
    await expect(row.locator(".scoreboard__cat").nth(1)).toHaveText("37.5");

    await member.goto("/status");
    const awards = member.getByRole("region", { name: "Awards" });
    await expect(awards.getByRole("listitem")).toHaveCount(1);
    await expect(awards.getByRole("listitem")).toContainText("+37.5");
    await expect(awards.getByRole("listitem")).toContainText("Best demo of the night");
    await expect(awards.getByRole("listitem")).toContainText("CS");
    await expect(member.locator(".status-card__total dd")).toHaveText("37.5");
    expect((await axe(member).include(".status-card").analyze()).violations).toEqual([]);

    // Revoking asks first (a plain post without JavaScript), then the points leave the board.
    await member.goto("/scoreboard");
    admin.once("dialog", (dialog) => void dialog.accept());
    await awardRow.getByRole("button", { name: /^Revoke/ }).click();
    await expect(admin.getByText("Award revoked")).toBeVisible();
    await expect(awardRow).toContainText("revoked");
    await expect(awardRow.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
    await expect(row.locator(".scoreboard__total")).toHaveText("0");

    await member.goto("/status");
    await expect(member.locator(".status-card__total dd")).toHaveText("0");
    await expect(member.getByRole("region", { name: "Awards" })).toHaveCount(0);
    await member.context().close();
    await admin.context().close();
  });

  test("the awards form and the revoke button work without JavaScript: errors beside the field, what was typed kept", async ({ browser }) => {
    // Steps: the worker's sweep (two), a sign-in, the page, a refused post, a given post, a revoke.
    budgetSteps(8);
    const team = await freshTeam();
    teamId = team.id;
    const admin = await signedInPage(browser, logins.admin, { javaScriptEnabled: false });
    await admin.goto("/dashboard/awards");
    await admin.getByLabel("Team", { exact: true }).selectOption({ label: team.name });
    await admin.getByLabel(/^Points/).fill("1.234");
    await admin.getByLabel(/^Reason/).fill("Typed once");
    await admin.getByRole("button", { name: "Give award" }).click();
    await expect(admin.getByText("Use at most 2 decimals")).toBeVisible();
    await expect(admin.getByLabel("Team", { exact: true })).toHaveValue(String(team.id));
    await expect(admin.getByLabel(/^Reason/)).toHaveValue("Typed once");
    await expect(admin.getByLabel(/^Points/)).toHaveValue("1.234");

    await admin.getByLabel(/^Points/).fill("-2");
    await admin.getByRole("button", { name: "Give award" }).click();
    const awardRow = admin.locator("tr", { hasText: team.name });
    await expect(awardRow).toContainText("-2");
    await expect(awardRow).toContainText("Typed once");
    await awardRow.getByRole("button", { name: /^Revoke/ }).click();
    await expect(awardRow).toContainText("revoked");
    await admin.context().close();
  });
});
