/**
 * Mail, for real (docs/domain.md "Mail"): the e2e server sends through the project's own SMTP server, which
 * keeps what it receives; these journeys read it as a person reads their inbox. A forgotten password through
 * to signed in; accounts made from registrations through to a participant choosing a password; the same link
 * page without JavaScript; a signed-in user changing their password, which ends their other sign-ins.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { linkIn, waitForMails } from "../support/mailbox.ts";
import { budgetSteps } from "./support/budget.ts";
import { logins, signedInPage } from "./support/login.ts";
import { E2E_SERVER_LOG } from "./support/paths.ts";
import { freshTeam } from "./support/teams.ts";

test.describe.configure({ mode: "parallel" });

let sql: postgres.Sql;
test.beforeAll(() => {
  sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
});
test.afterAll(async () => {
  await sql.end();
});

/** A participant of a team of their own, with an address only this test uses. */
async function memberWithAddress(prefix: string) {
  const team = await freshTeam(sql, prefix);
  const address = `${prefix.toLowerCase()}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
  await sql`update users set email = ${address} where name = ${team.member.name}`;
  return { ...team.member, address };
}

test("forgot your password: the mailed link, a new password, signed in; the link then refused", async ({ page }) => {
  budgetSteps(8); // login page, forgot form + answer, the link's page, its post + login page, login, reopening the link
  const since = Date.now();
  const member = await memberWithAddress("Forgot");
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await page.getByLabel("Email address").fill(member.address.toUpperCase());
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByText("If an account has this address, a link to choose a new password is on its way to it.")).toBeVisible();

  const [mail] = await waitForMails(member.address, since);
  expect(mail.subject).toMatch(/: choose a new password$/);
  const { url, token } = linkIn(mail);
  const opened = await page.goto(url);
  expect(opened?.headers()["referrer-policy"]).toBe("no-referrer");
  expect(opened?.headers()["cache-control"]).toBe("no-store");
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("chosen-in-the-browser");
  await page.getByLabel("The new password again").fill("chosen-in-the-browser");
  await page.getByRole("button", { name: "Save the password" }).click();

  await expect(page).toHaveURL(/\/login\?name=/);
  await expect(page.getByText("Your password is set. Sign in with it.")).toBeVisible();
  await expect(page.getByLabel("Username")).toHaveValue(member.name);
  await page.getByLabel("Password").fill("chosen-in-the-browser");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).not.toHaveURL(/\/login/);

  await page.goto(url);
  await expect(page.getByText("This link has already been used.")).toBeVisible();
  // The token never reached the server's log (the access log keeps paths only).
  expect(readFileSync(E2E_SERVER_LOG, "utf8")).not.toContain(token.split(".")[1]);
});

test("accounts from registrations: the admin makes them, the participant's mail is in the mailbox, they choose a password and sign in", async ({ browser }) => {
  budgetSteps(10); // registrations page, create, users page, mailbox, the mail, the link's page, its post, login
  const since = Date.now();
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const lastName = `Mailed${stamp}`;
  const address = `reg-${stamp}@example.org`;
  await sql`insert into registrations (name, last_name, email, phone, national_id, skill, tshirt_size, has_team, language)
    values ('Nour', ${lastName}, ${address}, '0555', '1', 'AI', 'M', false, 'en')`;

  const admin = await signedInPage(browser, logins.admin);
  await admin.goto(`/dashboard/registrations?q=${lastName}`);
  await expect(admin.getByText("Each account made here is mailed a link to choose its password")).toBeVisible();
  await admin.getByRole("checkbox", { name: `Select Nour ${lastName}` }).check();
  await admin.getByRole("button", { name: "Create accounts for selected" }).click();
  await expect(admin.getByText("Each new account is being mailed a link to choose its password.")).toBeVisible();
  // No password anywhere on the page.
  await expect(admin.getByRole("columnheader", { name: "Password" })).toHaveCount(0);
  const [{ name: userName, id }] = await sql<Array<{ name: string; id: number }>>`select u.name, u.id from users u where lower(u.email) = ${address}`;

  await waitForMails(address, since);
  await admin.goto("/dashboard/mailbox");
  await admin.getByRole("row").filter({ hasText: address }).getByRole("link").click();
  await expect(admin.getByRole("heading", { name: /choose your password$/ })).toBeVisible();
  const link = await admin.getByRole("region", { name: "Links in this mail" }).getByRole("link").first().getAttribute("href");
  expect(link).toContain("/set-password?token=");
  await admin.goto(`/dashboard/users?view=${id}`);
  await expect(admin.getByRole("row").filter({ hasText: address }).filter({ hasText: "Accepted by the mail server" })).toBeVisible();
  await admin.context().close();

  const person = await browser.newPage();
  await person.goto(link!);
  await expect(person.getByRole("heading", { name: "Choose your password" })).toBeVisible();
  await expect(person.getByText(userName)).toBeVisible();
  await person.getByLabel("New password", { exact: true }).fill("my-own-password");
  await person.getByLabel("The new password again").fill("my-own-password");
  await person.getByRole("button", { name: "Save the password" }).click();
  await expect(person.getByLabel("Username")).toHaveValue(userName);
  await person.getByLabel("Password").fill("my-own-password");
  await person.getByRole("button", { name: "Login" }).click();
  await expect(person).not.toHaveURL(/\/login/);
  await person.context().close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("asking for a link, choosing a password with a mistake first, signing in", async ({ page }) => {
    budgetSteps(8);
    const since = Date.now();
    const member = await memberWithAddress("NoScript");
    await page.goto("/forgot-password");
    await page.getByLabel("Email address").fill(member.address);
    await page.getByRole("button", { name: "Send me a link" }).click();
    await expect(page.getByText("If an account has this address")).toBeVisible();
    const [mail] = await waitForMails(member.address, since);
    await page.goto(linkIn(mail).url);
    await page.getByLabel("New password", { exact: true }).fill("no-script-password");
    await page.getByLabel("The new password again").fill("not-the-same-one");
    await page.getByRole("button", { name: "Save the password" }).click();
    await expect(page.getByText("The two passwords are not the same")).toBeVisible();
    await page.getByLabel("New password", { exact: true }).fill("no-script-password");
    await page.getByLabel("The new password again").fill("no-script-password");
    await page.getByRole("button", { name: "Save the password" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Your password is set." })).toBeVisible();
    await page.getByLabel("Password").fill("no-script-password");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).not.toHaveURL(/\/login/);
  });
});

test("changing one's password: the current one is checked, the other sign-ins end, this one goes on", async ({ browser }) => {
  budgetSteps(7);
  const member = await memberWithAddress("Change");
  const here = await signedInPage(browser, member);
  const elsewhere = await signedInPage(browser, member);
  await here.goto("/welcome");
  await here.getByRole("link", { name: `${member.name}: change your password` }).click();
  await expect(here.getByRole("heading", { name: "Change your password" })).toBeVisible();
  await here.getByLabel("Current password").fill("not-my-password");
  await here.getByLabel("New password", { exact: true }).fill("a-changed-password");
  await here.getByLabel("The new password again").fill("a-changed-password");
  await here.getByRole("button", { name: "Change the password" }).click();
  await expect(here.getByText("Your current password is not right")).toBeVisible();
  await here.getByLabel("Current password").fill(member.password);
  await here.getByLabel("New password", { exact: true }).fill("a-changed-password");
  await here.getByLabel("The new password again").fill("a-changed-password");
  await here.getByRole("button", { name: "Change the password" }).click();
  await expect(here.getByText("Your password is changed. Your other sign-ins were ended.")).toBeVisible();
  await here.goto("/status");
  await expect(here).toHaveURL(/\/status/);
  await elsewhere.goto("/status");
  await expect(elsewhere).toHaveURL(/\/login/);
  await here.context().close();
  await elsewhere.context().close();
});
