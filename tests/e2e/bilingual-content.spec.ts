/**
 * The event's content in two languages (docs/domain.md "Event content in two languages"): an Arabic reader
 * reads the Arabic an organiser gave a gate, a challenge, an announcement and a notification, live too, and
 * the English where there is none; an English reader the English. And /status's figures start where their
 * labels do, in both directions.
 */
import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { arabicPage } from "./support/arabic.ts";
import { budgetSteps } from "./support/budget.ts";
import { logins, signedInPage } from "./support/login.ts";
import { freshTeam } from "./support/teams.ts";

test.describe.configure({ mode: "parallel" });

let sql: postgres.Sql;
test.beforeAll(() => {
  sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
});
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

/** A challenge of the opened gate 2 with its Arabic beside its English. */
async function bilingualChallenge() {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const challenge = {
    title: `Lantern ${stamp}`,
    description: "Light the lantern before the gate closes.",
    titleAr: `الفانوس ${stamp}`,
    descriptionAr: "أشعل الفانوس قبل أن تُغلق البوابة.",
  };
  const [row] = await sql<Array<{ id: number }>>`
    insert into challenges (title, description, title_ar, description_ar, points, category, wave)
    values (${challenge.title}, ${challenge.description}, ${challenge.titleAr}, ${challenge.descriptionAr}, 40, 'PS', 2) returning id`;
  return { id: row.id, ...challenge };
}

test("an Arabic reader reads a gate's and a challenge's Arabic, an English reader their English", async ({ browser }) => {
  budgetSteps(8);
  const challenge = await bilingualChallenge();
  const team = await freshTeam(sql, "Bilingual");
  const [gate] = await sql<Array<{ title: string; title_ar: string | null }>>`select title, title_ar from gates where number = 2`;

  const arabic = await arabicPage(browser, team.member);
  await arabic.goto("/gate/2");
  if (gate.title_ar) await expect(arabic.getByRole("heading", { level: 1 })).toHaveText(gate.title_ar);
  await expect(arabic.getByRole("heading", { level: 2, name: challenge.titleAr })).toBeVisible();
  await expect(arabic.getByText(challenge.title)).toHaveCount(0);
  await arabic.goto(`/submition/${challenge.id}`);
  await expect(arabic.getByRole("heading", { level: 1 })).toHaveText(challenge.titleAr);
  // The Arabic text takes its own direction (right to left) from its content.
  const description = arabic.getByText(challenge.descriptionAr);
  await expect(description).toHaveAttribute("dir", "auto");
  expect(await description.evaluate((element) => getComputedStyle(element).direction)).toBe("rtl");
  await expect(arabic.getByText(challenge.description)).toHaveCount(0);

  const english = await signedInPage(browser, team.member);
  await english.goto(`/submition/${challenge.id}`);
  await expect(english.getByRole("heading", { level: 1 })).toHaveText(challenge.title);
  await expect(english.getByText(challenge.description)).toBeVisible();
  await expect(english.getByText(challenge.descriptionAr)).toHaveCount(0);
  await arabic.context().close();
  await english.context().close();
});

test("an Arabic reader reads the English of a challenge given none, in its own direction", async ({ browser }) => {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const title = `Only English ${stamp}`;
  const [row] = await sql<Array<{ id: number }>>`
    insert into challenges (title, description, points, category, wave) values (${title}, 'Read me, then answer.', 30, 'PS', 2) returning id`;
  const team = await freshTeam(sql, "Fallback");
  const arabic = await arabicPage(browser, team.member);
  await arabic.goto(`/submition/${row.id}`);
  await expect(arabic.getByRole("heading", { level: 1 })).toHaveText(title);
  // A Latin sentence inside the Arabic page keeps its full stop at its end: it runs left to right.
  const description = arabic.getByText("Read me, then answer.");
  expect(await description.evaluate((element) => getComputedStyle(element).direction)).toBe("ltr");
  await arabic.context().close();
});

/** Where a status figure's text and its label's text begin and end on the screen. */
async function edges(page: Page, term: string) {
  const fact = page.locator(".status-card__facts > div").filter({ has: page.locator("dt").getByText(term, { exact: true }) });
  return fact.evaluate((box) => {
    const textBox = (element: Element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const rect = range.getBoundingClientRect();
      return { left: rect.left, right: rect.right };
    };
    return { label: textBox(box.querySelector("dt")!), figure: textBox(box.querySelector("dd")!) };
  });
}

test("/status: each figure starts where its label does, in English and in Arabic", async ({ browser }) => {
  const team = await freshTeam(sql, "Aligned");
  const english = await signedInPage(browser, team.member);
  await english.goto("/status");
  for (const term of ["CS", "AI", "PS", "GD", "Total points"]) {
    const { label, figure } = await edges(english, term);
    expect(Math.abs(figure.left - label.left), `${term}: its figure begins at its label's left edge`).toBeLessThanOrEqual(1);
  }
  const arabic = await arabicPage(browser, team.member);
  await arabic.goto("/status");
  for (const term of ["CS", "AI", "PS", "GD", "مجموع النقاط"]) {
    const { label, figure } = await edges(arabic, term);
    expect(Math.abs(figure.right - label.right), `${term}: its figure begins at its label's right edge`).toBeLessThanOrEqual(1);
  }
  await english.context().close();
  await arabic.context().close();
});

test("a live announcement and notification reach an Arabic reader in Arabic and an English reader in English", { tag: "@event-wide" }, async ({ browser }) => {
  // Steps: three sign-ins, four pages, two posts, two live announcements, two popups.
  budgetSteps(13);
  const team = await freshTeam(sql, "Live words");
  const arabic = await arabicPage(browser, team.member);
  const english = await signedInPage(browser, team.member);
  await arabic.goto("/announcement");
  await english.goto("/announcement");
  // Both pages must take it live: a marker set now survives only an update without a reload.
  for (const page of [arabic, english]) await page.evaluate(() => ((window as unknown as { marker: string }).marker = "same page"));

  const stamp = Date.now();
  const admin = await signedInPage(browser, logins.admin);
  await admin.goto("/dashboard");
  await admin.getByLabel("Title", { exact: true }).fill(`Lunch ${stamp}`);
  await admin.getByLabel("Content", { exact: true }).fill("Lunch is served in hall B.");
  await admin.getByLabel("Title in Arabic (optional)").fill(`الغداء ${stamp}`);
  await admin.getByLabel("Content in Arabic (optional)").fill("الغداء في القاعة ب.");
  await admin.getByRole("button", { name: "Send Announcement" }).click();
  await expect(admin.getByText("Announcement created successfully!")).toBeVisible();

  await expect(arabic.getByRole("heading", { level: 2, name: new RegExp(`الغداء ${stamp}`) })).toBeVisible();
  await expect(arabic.getByText("الغداء في القاعة ب.")).toBeVisible();
  await expect(arabic.getByText(`Lunch ${stamp}`)).toHaveCount(0);
  await expect(english.getByRole("heading", { level: 2, name: new RegExp(`Lunch ${stamp}`) })).toBeVisible();
  await expect(english.getByText(`الغداء ${stamp}`)).toHaveCount(0);
  for (const page of [arabic, english]) expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same page");

  await admin.goto("/dashboard/notifications");
  await admin.getByLabel("Message", { exact: true }).fill(`Doors close at ten ${stamp}`);
  await admin.getByLabel("Message in Arabic (optional)").fill(`تُغلق الأبواب في العاشرة ${stamp}`);
  await admin.getByRole("button", { name: "Send", exact: true }).click();
  await expect(admin.getByText("Notification sent successfully")).toBeVisible();
  await expect(arabic.locator(".notification-popup__message")).toHaveText(`تُغلق الأبواب في العاشرة ${stamp}`);
  await expect(english.locator(".notification-popup__message")).toHaveText(`Doors close at ten ${stamp}`);
  // Kept in the browser with both texts: after a switch to English, the Arabic reader's popup reads English.
  await arabic.context().addCookies([{ name: "lang", value: "en", url: test.info().project.use.baseURL! }]);
  await arabic.reload();
  await expect(arabic.locator(".notification-popup__message")).toHaveText(`Doors close at ten ${stamp}`);
  for (const page of [arabic, english, admin]) await page.context().close();
});
