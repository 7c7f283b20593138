/**
 * Sign-in with the organisers' identity provider in a browser (docs/domain.md "Sign-in with the organisers'
 * identity provider"): the e2e server's provider is a real oidc-provider with its own sign-in pages
 * (tests/e2e/support/start-server.ts), where the login typed is the person, their demo address vouched for.
 */
import { expect, test, type Page } from "@playwright/test";
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
});
