/**
 * The challenge form's checking (docs/domain.md "Flag challenges"): with JavaScript the flag fields show only
 * once "Flag" is chosen; a pattern RE2 refuses is named by its line and what was typed stays; the list shows
 * the challenge as a flag one and its edit form holds the answers. Without JavaScript every field shows.
 */
import { expect, test } from "@playwright/test";
import { messages } from "../../app/modules/messages.ts";
import { logins, signedInPage, signIn } from "./support/login.ts";

test("an admin makes a flag challenge: the flag fields follow the choice, a bad pattern is named by its line", async ({ page }) => {
  const title = `Flag form ${Date.now()}`;
  await signIn(page, logins.admin);
  await page.goto("/dashboard/challenges");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  const answers = page.getByLabel("Accepted answers");
  await expect(answers).toBeHidden();
  await page.getByLabel("Checked by").selectOption("flag");
  await expect(answers).toBeVisible();

  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Description", { exact: true }).fill("Find the flag.");
  await page.getByLabel("Points", { exact: true }).fill("60");
  await page.getByLabel("Category").selectOption("CS");
  await page.getByLabel("Wave").selectOption("1");
  const typed = "exact: GK{form-e2e}\nregex: GK{(";
  await answers.fill(typed);
  await page.getByLabel("Most wrong answers").fill("8");
  await page.getByRole("button", { name: "Add Challenge" }).click();
  await expect(page.getByText(/Answers, line 2: this pattern does not compile/)).toBeVisible();
  await expect(answers).toHaveValue(typed);

  await answers.fill("exact: GK{form-e2e}\nany case: gk{Form-E2E}");
  await page.getByRole("button", { name: "Add Challenge" }).click();
  await expect(page.getByText(messages.dashboard.challengeAdded)).toBeVisible();

  await page.goto("/dashboard/getAllChallenges");
  const row = page.getByRole("row", { name: new RegExp(title) });
  await expect(row).toContainText("Flag");
  await row.getByRole("link", { name: `Edit ${title}` }).click();
  await expect(page.getByLabel("Checked by")).toHaveValue("flag");
  await expect(page.getByLabel("Accepted answers")).toHaveValue("exact: GK{form-e2e}\nany case: gk{Form-E2E}");
  await expect(page.getByLabel("Most wrong answers")).toHaveValue("8");
});

test("without JavaScript every field of the form shows, the answers said to be for flag challenges only", async ({ browser }) => {
  const page = await signedInPage(browser, logins.admin, { javaScriptEnabled: false });
  await page.goto("/dashboard/challenges");
  await expect(page.getByLabel("Checked by")).toBeVisible();
  await expect(page.getByLabel("Accepted answers (used only for flag challenges)")).toBeVisible();
  await expect(page.getByLabel("Wrong answers a minute")).toBeVisible();
  await page.context().close();
});
