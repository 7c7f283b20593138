import { expect, test, type Browser, type Page } from "@playwright/test";
import { demoLogins } from "../../../scripts/demo-event.ts";

export const logins = {
  admin: demoLogins.admin,
  judge: demoLogins.judge,
  participant: { name: "phoenix1", password: demoLogins.participantPassword },
};

type Who = { name: string; password: string };

/** Logs in through the login page, as a person does: for tests about logging in and where it lands. */
export async function login(page: Page, who: Who, path = "/login") {
  await page.goto(path);
  await page.getByLabel("Username").fill(who.name);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/**
 * Signs the page's browser context in with one POST to the login form's own action (a real login:
 * password check, throttle, a session cookie of its own), without loading the login page, typing
 * and passing the preloader: a test that is not about logging in starts on its own page at once.
 * The page stays where it is; the test opens what it needs next.
 */
export async function signIn(page: Page, who: Who) {
  const baseURL = test.info().project.use.baseURL;
  if (!baseURL) throw new Error("signIn needs the baseURL of playwright.config.ts");
  const origin = new URL(baseURL).origin;
  const response = await page.context().request.post("/login", {
    form: { username: who.name, password: who.password },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  // The action answers a document POST with a redirect to the user's first page, cookie set.
  expect(response.status(), `login as ${who.name}: ${await response.text()}`).toBe(302);
}

/**
 * A fresh browser context (its own cookies) signed in as `who`, on a blank page. `viaForm` logs in
 * through the login page instead, and leaves the page where the login lands.
 */
export async function signedInPage(browser: Browser, who: Who, options: { javaScriptEnabled?: boolean; viaForm?: boolean } = {}) {
  const context = await browser.newContext({ reducedMotion: "reduce", javaScriptEnabled: options.javaScriptEnabled ?? true });
  const page = await context.newPage();
  if (options.viaForm) await login(page, who);
  else await signIn(page, who);
  return page;
}

/** A participant of the demo event by name (they all share the demo password). */
export const participant = (name: string) => ({ name, password: demoLogins.participantPassword });

/** Opens a challenge's submission page from its gate board. */
export async function openChallenge(page: Page, wave: number, title: string) {
  await page.goto(`/gate/${wave}`);
  await page.getByRole("link", { name: `Next: ${title}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
}

/** Sends (or updates) the team's text answer to a challenge, as a participant would. */
export async function submitText(page: Page, wave: number, title: string, answer: string) {
  await openChallenge(page, wave, title);
  await page.getByPlaceholder("SUBMIT A TEXT IF IT NEEDED").fill(answer);
  await page.getByRole("button", { name: /^(SUBMIT|update)$/ }).click();
  await expect(page.getByText("Submission successful!")).toBeVisible();
}
