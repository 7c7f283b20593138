import { expect, type Page } from "@playwright/test";
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
