/**
 * Sign-in with the organisers' identity provider in a browser (docs/domain.md "Sign-in with the organisers'
 * identity provider"): the e2e server's provider is a real oidc-provider with its own sign-in pages
 * (tests/e2e/support/start-server.ts), where the login typed is the person, their demo address vouched for.
 */
import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { linkIn, waitForMails } from "../support/mailbox.ts";
import { budgetSteps } from "./support/budget.ts";
import { logins, signedInPage } from "./support/login.ts";
import { E2E_PROVIDER_LABEL } from "./support/paths.ts";

const button = `Sign in with ${E2E_PROVIDER_LABEL}`;

/** The provider's own pages: its login form (any password), then its consent. */
async function signInAtProvider(page: Page, who: string) {
  await page.locator('input[name="login"]').fill(who);
  await page.locator('input[name="password"]').fill("any-password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

async function setParticipantPasswordsOff(admin: Page, off: boolean) {
  await admin.goto("/dashboard/settings");
  const box = admin.getByLabel("Password sign-in off for participants");
  if (off) await box.check();
  else await box.uncheck();
  await admin.getByRole("button", { name: "Save sign-in" }).click();
  await expect(admin.getByText(off ? "Participants now sign in through the identity provider only" : "Participants may sign in with a password again").first()).toBeVisible();
}

test.describe("signing in with the organisers' identity provider", () => {
  test("a participant signs in at the provider's page and lands signed in on their page", async ({ page }) => {
    // Steps: /login, the provider's login and consent, the callback and the participant's page.
    budgetSteps(5);
    await page.goto("/login");
    await page.getByRole("button", { name: button }).click();
    await expect(page).not.toHaveURL(/\/login/);
    await signInAtProvider(page, "basilisk1");
    await expect(page).toHaveURL(/\/\/[^/?]+\/welcome$/);
    await expect(page.getByText("basilisk1").first()).toBeVisible();
  });

  test("with passwords off for participants, /login offers them the provider only and refuses their password", { tag: "@event-wide" }, async ({ browser, page }) => {
    // Steps: the admin's sign-in, the settings (saved twice), /login, the refused password, the provider's pages.
    budgetSteps(14);
    const admin = await signedInPage(browser, logins.admin);
    await setParticipantPasswordsOff(admin, true);
    try {
      await expect(admin.getByText(`Now: participants sign in with ${E2E_PROVIDER_LABEL} only`)).toBeVisible();
      await page.goto("/login");
      await expect(page.getByText(`Participants sign in with ${E2E_PROVIDER_LABEL}.`)).toBeVisible();
      await expect(page.getByRole("button", { name: button })).toBeVisible();
      // The password form is not offered: folded away for staff.
      await expect(page.getByLabel("Password")).toBeHidden();
      await expect(page.getByRole("button", { name: "Login" })).toBeHidden();

      // A participant who types their password anyway (the staff's form opened) is told how to sign in.
      await page.getByText("Admins, judges and mentors: sign in with a password").click();
      await page.getByLabel("Username").fill(logins.participant.name);
      await page.getByLabel("Password").fill(logins.participant.password);
      await page.getByRole("button", { name: "Login" }).click();
      await expect(page.getByRole("alert")).toHaveText(`Participants sign in with ${E2E_PROVIDER_LABEL} at this event, not with a password.`);
      await expect(page).toHaveURL(/\/login/);

      // The provider's button still signs the participant in.
      await page.getByRole("button", { name: button }).click();
      await signInAtProvider(page, "basilisk1");
      await expect(page).toHaveURL(/\/\/[^/?]+\/welcome$/);
    } finally {
      await setParticipantPasswordsOff(admin, false);
      await admin.context().close();
    }
  });

  test("with passwords off, an account from a registration confirms its mailed address, then signs in through the provider", { tag: "@event-wide" }, async ({ browser, page }) => {
    // Steps: the admin's sign-in, the settings (twice), registrations and their creation, the link's page, its post,
    // the provider's pages and the participant's page.
    budgetSteps(16);
    const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
    const admin = await signedInPage(browser, logins.admin);
    await setParticipantPasswordsOff(admin, true);
    try {
      // The provider vouches for `<login>@demo.gatekeeper.example` (tests/e2e/support/start-server.ts).
      const since = Date.now();
      const login = `confirm${Date.now()}${Math.floor(Math.random() * 1000)}`;
      const address = `${login}@demo.gatekeeper.example`;
      await sql`insert into registrations (name, last_name, email, phone, national_id, skill, tshirt_size, has_team, language)
        values ('Salma', ${login}, ${address}, '0555', '1', 'AI', 'M', false, 'en')`;
      await admin.goto(`/dashboard/registrations?q=${login}`);
      await expect(admin.getByText(`Participants sign in with ${E2E_PROVIDER_LABEL}: each account made here is mailed a link to confirm its address`)).toBeVisible();
      await admin.getByRole("checkbox", { name: `Select Salma ${login}` }).check();
      await admin.getByRole("button", { name: "Create accounts for selected" }).click();
      await expect(admin.getByText("Each new account is being mailed a link to confirm its address")).toBeVisible();
      const [{ name: userName }] = await sql<Array<{ name: string }>>`select name from users where lower(email) = ${address}`;

      const [mail] = await waitForMails(address, since);
      expect(mail.subject).toMatch(/: confirm your address$/);
      await page.goto(linkIn(mail).url);
      await expect(page.getByRole("heading", { name: "Confirm your address" })).toBeVisible();
      await expect(page.getByText(address)).toBeVisible();
      await page.getByRole("button", { name: "Confirm my address" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByText(`Your address is confirmed. Sign in with ${E2E_PROVIDER_LABEL}.`)).toBeVisible();

      // The provider's sign-in binds the new account by its confirmed address.
      await page.getByRole("button", { name: button }).click();
      await signInAtProvider(page, login);
      await expect(page).toHaveURL(/\/\/[^/?]+\/welcome$/);
      await expect(page.getByText(userName).first()).toBeVisible();
    } finally {
      await setParticipantPasswordsOff(admin, false);
      await admin.context().close();
      await sql.end();
    }
  });
});
