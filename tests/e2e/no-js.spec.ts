/**
 * What an action confirms reaches the user with or without JavaScript: without it, the toast's words are
 * in the page below the bar (a status, or an alert for a refusal); with it, the toast alone says them,
 * below the bar, at a laptop's width and a phone's. And the registration form's numbers-only fields.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import postgres from "postgres";
import { messages } from "../../app/modules/messages.ts";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { freshChallengeToJudge } from "./support/judging.ts";
import { logins, signedInPage, signIn } from "./support/login.ts";
import { freshTeam, openedChallenge } from "./support/teams.ts";

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

const teamAdded = messages.dashboard.teamAdded;
const requestSent = messages.participant.requestSent;

/** The two boxes share no pixel. */
async function expectApart(a: Locator, b: Locator) {
  const [first, second] = [await a.boundingBox(), await b.boundingBox()];
  expect(first && second, "both on screen").toBeTruthy();
  const overlap =
    first!.x < second!.x + second!.width && second!.x < first!.x + first!.width && first!.y < second!.y + second!.height && second!.y < first!.y + first!.height;
  expect(overlap, `${JSON.stringify(first)} overlaps ${JSON.stringify(second)}`).toBe(false);
}

/** The participant screens' bar. */
const bar = (page: Page) => page.getByRole("banner");

/** With JavaScript, the page must have hydrated first: a click before it posts the form the no-JS way. */
async function sendMentorCall(page: Page, { hydrated }: { hydrated: boolean }) {
  await page.goto("/home");
  if (hydrated) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  const mentor = page.getByRole("region", { name: "Call a mentor" });
  await mentor.getByLabel("Message").fill(`We need a hand ${Date.now()}`);
  await mentor.getByRole("button", { name: "Send" }).click();
}

test.describe("without JavaScript the confirmation is in the page", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin adds a team: told so below the navigation; a refused delete is an alert", async ({ page }) => {
    const name = `Quiet Owls ${Date.now()}`;
    await signIn(page, logins.admin);
    await page.goto("/dashboard/teams");
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Add team" }).click();
    await expect(page.getByRole("status").filter({ hasText: teamAdded })).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(name) })).toBeVisible();
    // Once: the next page has no message left over.
    await page.goto("/dashboard/teams");
    await expect(page.getByText(teamAdded)).toHaveCount(0);

    // A demo team with submissions cannot be deleted: the refusal is an alert, in the page.
    await page.getByRole("button", { name: "Delete Phoenix" }).click();
    await expect(page.getByRole("alert").filter({ hasText: /This team has submissions/ })).toBeVisible();
  });

  test("a judge's score sent from the Submissions page is confirmed", async ({ browser }) => {
    const event = await freshChallengeToJudge(sql, 1);
    const judge = await signedInPage(browser, event.judge, { javaScriptEnabled: false });
    await judge.goto("/dashboard/submissions");
    const row = judge.getByRole("form", { name: `Score ${event.teams[0]} on ${event.title}` });
    await row.getByLabel("Score (0 to 10)").fill("7");
    await row.getByRole("button", { name: "Send" }).click();
    await expect(judge.getByRole("status").filter({ hasText: messages.scoring.saved })).toBeVisible();
    await expect(judge.getByRole("form", { name: `Score ${event.teams[0]} on ${event.title}` }).getByLabel("Score (0 to 10)")).toHaveValue("7");
    await judge.context().close();
  });

  test("a participant's submission is confirmed", async ({ browser }) => {
    const team = await freshTeam(sql, "Wren");
    const challenge = await openedChallenge(sql);
    const page = await signedInPage(browser, team.member, { javaScriptEnabled: false });
    await page.goto(`/submition/${challenge.id}`);
    await page.getByPlaceholder("SUBMIT A TEXT IF IT NEEDED").fill(`Our quiet answer ${Date.now()}`);
    await page.getByRole("button", { name: "SUBMIT" }).click();
    await expect(page.getByRole("status").filter({ hasText: messages.participant.created })).toBeVisible();
    await expect(page.getByText("Submission successful!")).toBeVisible();
    await page.context().close();
  });

  test("a mentor call is confirmed, below the bar", async ({ browser }) => {
    const team = await freshTeam(sql, "Lark");
    const page = await signedInPage(browser, team.member, { javaScriptEnabled: false });
    await sendMentorCall(page, { hydrated: false });
    const notice = page.getByRole("status").filter({ hasText: requestSent });
    await expect(notice).toBeVisible();
    await expectApart(notice, bar(page));
    await page.context().close();
  });
});

test.describe("with JavaScript the toast alone says it, below the bar (the dashboard on a phone: its first line)", () => {
  for (const width of [1366, 390]) {
    test(`an admin adds a team at ${width} px: one message, clear of the dashboard's navigation`, async ({ page }) => {
      await page.setViewportSize({ width, height: width > 600 ? 768 : 844 });
      await signIn(page, logins.admin);
      await page.goto("/dashboard/teams");
      // Hydrated first: a click before it posts the form the no-JS way (sendMentorCall).
      await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
      await page.getByLabel("Name").fill(`Loud Owls ${width} ${Date.now()}`);
      await page.getByRole("button", { name: "Add team" }).click();
      // On a phone the dashboard says it as the page's first line, not in a toast over the first card.
      const toast = page.locator(width > 720 ? "[data-sonner-toast]" : "main [data-flash-first-line]").filter({ hasText: teamAdded });
      await expect(toast).toBeVisible();
      await expect(page.getByText(teamAdded)).toHaveCount(1);
      await expectApart(toast, page.getByRole("complementary").filter({ has: page.getByRole("navigation", { name: "Dashboard" }) }));
      if (width <= 720) await expectApart(toast, page.getByRole("main").locator(".card").first());
    });

    test(`a participant's mentor call at ${width} px: one message, the toast below the bar and its badge`, async ({ browser }) => {
      const team = await freshTeam(sql, "Finch");
      const page = await signedInPage(browser, team.member);
      await page.setViewportSize({ width, height: width > 600 ? 768 : 844 });
      await sendMentorCall(page, { hydrated: true });
      const toast = page.locator("[data-sonner-toast]").filter({ hasText: requestSent });
      await expect(toast).toBeVisible();
      await expect(page.getByText(requestSent)).toHaveCount(1);
      await expectApart(toast, bar(page));
      await page.context().close();
    });
  }
});

test.describe("the registration form's phone and national ID take numbers only", () => {
  const person = () => ({
    Name: "Amina",
    "Last Name": "Benali",
    Email: `digits-${Date.now()}-${Math.floor(Math.random() * 1000)}@e2e.example`,
    "Phone Number": "0555123456",
    "National Identification Number": "109876543210",
    "Your Skill": "Design",
  });

  async function fill(page: Page, values: Record<string, string>) {
    for (const [label, value] of Object.entries(values)) await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByLabel("Do you have a team?").selectOption("no");
    await page.getByLabel("T-Shirt Size").selectOption("M");
  }

  const stored = async (email: string) => (await sql`select 1 from registrations where lower(email) = lower(${email})`).length;

  for (const label of ["Phone Number", "National Identification Number"]) {
    test(`a letter typed in ${label} is refused as it is typed, with the message, and nothing is sent`, async ({ page }) => {
      await page.goto("/register");
      await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
      const visitor = person();
      await fill(page, visitor);
      const field = page.getByLabel(label, { exact: true });
      await expect(field).toHaveAttribute("inputmode", "numeric");
      await field.fill("");
      await field.pressSequentially("055a");
      await expect(field).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText(messages.registration.digitsOnly)).toBeVisible();
      await page.getByRole("button", { name: "Submit!" }).click();
      await expect(page.getByText(messages.registration.digitsOnly)).toBeVisible();
      // Digits with the spaces people type between them are fine again.
      await field.fill("0555 12 34");
      await expect(page.getByText(messages.registration.digitsOnly)).toHaveCount(0);
      await expect(field).not.toHaveAttribute("aria-invalid", "true");
      expect(await stored(visitor.Email)).toBe(0);
    });
  }

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the browser holds the form back, and the server still refuses letters, keeping what was typed", async ({ page }) => {
      await page.goto("/register");
      const visitor = { ...person(), "Phone Number": "0555 abc" };
      await fill(page, visitor);
      const phone = page.getByLabel("Phone Number", { exact: true });
      await page.getByRole("button", { name: "Submit!" }).click();
      // The browser's own check (the input's pattern) stopped it: the field is invalid, with our words as its hint.
      await expect(page.locator("#register-phone:invalid")).toHaveCount(1);
      await expect(phone).toHaveAttribute("title", messages.registration.digitsOnly);
      await expect(page.getByRole("heading", { name: "Register" })).toBeVisible();

      // A browser that skips the check reaches the server, which refuses it the same way.
      await page.locator("form.register__form").evaluate((form: HTMLFormElement) => (form.noValidate = true));
      await page.getByRole("button", { name: "Submit!" }).click();
      await expect(page.getByText(messages.registration.digitsOnly)).toBeVisible();
      await expect(phone).toHaveAttribute("aria-invalid", "true");
      await expect(phone).toHaveValue("0555 abc");
      await expect(page.getByLabel("Email", { exact: true })).toHaveValue(visitor.Email);
      await expect(page.getByLabel("Your Skill", { exact: true })).toHaveValue("Design");
      expect(await stored(visitor.Email)).toBe(0);
    });
  });
});
