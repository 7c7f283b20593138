import { expect, type Browser, type Page } from "@playwright/test";
import { demoLogins } from "../../../db/demo-event.ts";

export const logins = {
  admin: demoLogins.admin,
  judge: demoLogins.judge,
  participant: { name: "phoenix1", password: demoLogins.participantPassword },
};

export async function login(page: Page, who: { name: string; password: string }, path = "/login") {
  await page.goto(path);
  await page.getByLabel("Username").fill(who.name);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** A fresh browser context (its own cookies) signed in as `who`. */
export async function signedInPage(browser: Browser, who: { name: string; password: string }, options: { javaScriptEnabled?: boolean } = {}) {
  const context = await browser.newContext({ reducedMotion: "reduce", javaScriptEnabled: options.javaScriptEnabled ?? true });
  const page = await context.newPage();
  await login(page, who);
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
