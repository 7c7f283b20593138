/**
 * Teams that form themselves (docs/domain.md "Teams that form themselves"): the admin turns it on in Settings →
 * Teams; a participant without a team creates one on /team and makes an invitation; a second participant opens
 * its link, joins, and stays signed in; the captain sees them among the members. Event-wide: the setting
 * changes how every registration's team is read, so the test runs alone and turns it off again.
 */
import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { nameColumns } from "../../app/modules/names/names.ts";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { budgetSteps } from "./support/budget.ts";
import { logins, signedInPage } from "./support/login.ts";

let sql: postgres.Sql;
test.beforeAll(() => {
  sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
});
test.afterAll(async () => {
  await sql`update event_settings set self_formed_teams = false, teams_locked = false where id = 1`;
  await sql.end();
});

/** A participant on no team (the demo participants' password). */
async function loneParticipant(prefix: string) {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const user = nameColumns(`${prefix}.${stamp}`);
  await sql`insert into users (name, name_key, role, password_hash)
    select ${user.name}, ${user.nameKey}, 'participant', password_hash from users where name = ${logins.participant.name}`;
  return { name: user.name, password: logins.participant.password };
}

test("a team formed by invitation: the captain creates it, a second participant joins by the link, the captain sees them", { tag: "@event-wide" }, async ({ browser }) => {
  budgetSteps(14); // settings, save, two sign-ins, team page ×2, create, invite, link, join, captain's reload
  const admin = await signedInPage(browser, logins.admin);
  await admin.goto("/dashboard/settings");
  await admin.getByLabel("Participants form their own teams (create, invite, join, leave)").check();
  await admin.getByLabel("Teams locked: no one joins, leaves or is removed by a captain").uncheck();
  await admin.getByRole("button", { name: "Save team formation" }).click();
  await expect(admin.getByText("Team formation saved.")).toBeVisible();

  const [captainLogin, memberLogin] = [await loneParticipant("captain"), await loneParticipant("joiner")];
  const captain = await signedInPage(browser, captainLogin);
  await captain.goto("/team");
  await expect(captain.getByText("You are not in a team yet.")).toBeVisible();
  const teamName = `Formed ${Date.now()}`;
  await captain.getByLabel("Team name").fill(teamName);
  await captain.getByRole("button", { name: "Create the team" }).click();
  await expect(captain.getByText(`Team ${teamName} created: you are its captain.`)).toBeVisible();
  await expect(captain.getByRole("heading", { name: teamName })).toBeVisible();

  await captain.getByRole("button", { name: "New invitation" }).click();
  const link = (await captain.getByTestId("invite-link").textContent())!;
  expect(link).toMatch(/\/team\?code=[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);

  const member = await signedInPage(browser, memberLogin);
  await member.goto(new URL(link).pathname + new URL(link).search);
  await expect(member.getByLabel("Invitation code")).toHaveValue(new URL(link).searchParams.get("code")!);
  await member.getByRole("button", { name: "Join the team" }).click();
  await expect(member.getByText(`You joined ${teamName}.`)).toBeVisible();
  // Still signed in, on the team's page.
  await expect(member.getByRole("heading", { name: teamName })).toBeVisible();
  await member.goto("/status");
  await expect(member).toHaveURL(/\/status$/);

  await captain.goto("/team");
  const members = captain.getByRole("list", { name: "Members" });
  await expect(members.getByText(memberLogin.name)).toBeVisible();
  await expect(captain.getByRole("heading", { name: /^Members \(2 of \d+\)$/ })).toBeVisible();
});
