import { expect, test, type Page } from "@playwright/test";
import { login, logins } from "./support/login.ts";

// A tiny but real PDF.
const pdf = Buffer.from(
  "%PDF-1.1\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 72 72]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

async function columnTexts(page: Page, index: number) {
  return page.locator("table tbody tr").evaluateAll((rows, i) => rows.map((row) => (row.children[i] as HTMLElement).innerText.trim()), index);
}

test.describe("admin dashboard", () => {
  test("an admin creates a team and a participant in it", async ({ page }) => {
    const stamp = Date.now();
    const teamName = `Falcons ${stamp}`;
    const userName = `falcon-${stamp}`;
    await login(page, logins.admin);

    await page.goto("/dashboard/teams");
    await page.getByLabel("Name").fill(teamName);
    await page.getByRole("button", { name: "Add team" }).click();
    await expect(page.getByText("تمت إضافة الفريق بنجاح")).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(teamName) })).toContainText("0");
    await expect(page.getByLabel("Name")).toHaveValue("");

    await page.goto("/dashboard/users");
    await page.getByLabel("Name").fill(userName);
    await page.getByLabel("Password").fill("falcon-password");
    await page.getByLabel("Role").selectOption("participant");
    await page.getByLabel("Team").selectOption({ label: teamName });
    await page.getByRole("button", { name: "Add user" }).click();
    await expect(page.getByText("تمت إضافة المستخدم بنجاح")).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(userName) })).toContainText(teamName);
    await page.goto("/dashboard/teams");
    await expect(page.getByRole("row", { name: new RegExp(teamName) }).locator("td").nth(1)).toHaveText("1");
  });

  test("an admin renames a team through edit (the form fills, then resets) and deletes it; a team with submissions is refused", async ({ page }) => {
    page.on("dialog", (dialog) => dialog.accept());
    const stamp = Date.now();
    await login(page, logins.admin);
    await page.goto("/dashboard/teams");
    await page.getByLabel("Name").fill(`Owls ${stamp}`);
    await page.getByRole("button", { name: "Add team" }).click();
    await expect(page.getByText("تمت إضافة الفريق بنجاح")).toBeVisible();

    await page.getByRole("link", { name: `Edit Owls ${stamp}` }).click();
    await expect(page.getByLabel("Name")).toHaveValue(`Owls ${stamp}`);
    await page.getByLabel("Name").fill(`Night Owls ${stamp}`);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("تم تعديل الفريق بنجاح")).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue("");
    await expect(page.getByRole("row", { name: new RegExp(`Night Owls ${stamp}`) })).toBeVisible();

    // Renaming to an existing name (any case) is refused, and what was typed stays.
    await page.getByRole("link", { name: `Edit Night Owls ${stamp}` }).click();
    // The edit link is a client navigation: typing before the form has filled would type into the old one.
    await expect(page.getByLabel("Name")).toHaveValue(`Night Owls ${stamp}`);
    await page.getByLabel("Name").fill("PHOENIX");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("⚠️ A team with this name already exists")).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue("PHOENIX");

    await page.goto("/dashboard/teams");
    await page.getByRole("button", { name: "Delete Phoenix" }).click();
    await expect(page.getByText(/⚠️ This team has submissions/)).toBeVisible();
    await page.getByRole("button", { name: `Delete Night Owls ${stamp}` }).click();
    await expect(page.getByText("تم حذف الفريق بنجاح")).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(`Night Owls ${stamp}`) })).toHaveCount(0);
  });

  test("an admin adds a challenge with a PDF attachment, downloads it and toggles its status", async ({ page }) => {
    const title = `Riddle ${Date.now()}`;
    await login(page, logins.admin);
    await page.goto("/dashboard/challenges");
    await page.getByRole("button", { name: "Add Challenge" }).click();
    await expect(page.getByText("Title is required")).toBeVisible();
    await expect(page.getByText("Category is required")).toBeVisible();
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Description").fill("Read the runes.");
    await page.getByLabel("Points").fill("120");
    await page.getByLabel("Category").selectOption("CS");
    await page.getByLabel("Wave").selectOption("2");
    await page.getByLabel(/^Attachment/).setInputFiles({ name: "brief.pdf", mimeType: "application/pdf", buffer: pdf });
    await page.getByRole("button", { name: "Add Challenge" }).click();
    await expect(page.getByText("تمت إضافة التحدي بنجاح")).toBeVisible();

    await page.goto("/dashboard/getAllChallenges");
    const listRow = page.getByRole("row", { name: new RegExp(title) });
    await expect(listRow).toContainText("Cyber Security");
    const download = await page.request.get(await listRow.getByRole("link", { name: /Download the attachment/ }).getAttribute("href") ?? "", { maxRedirects: 5 });
    expect(download.status()).toBe(200);
    expect((await download.body()).subarray(0, 4).toString()).toBe("%PDF");

    await page.goto("/dashboard/allchallenges");
    const statusRow = page.getByRole("row", { name: new RegExp(title) });
    await statusRow.getByRole("button", { name: /active/ }).click();
    await expect(statusRow.getByRole("button")).toHaveText("inactive");
    await statusRow.getByRole("button").click();
    await expect(statusRow.getByRole("button")).toHaveText("active");
  });

  test("an admin edits the home page videos", async ({ page }) => {
    const stamp = Date.now();
    await login(page, logins.admin);
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Edit the home page videos" })).toBeVisible();
    await page.getByLabel("Video 1 URL").fill("");
    await page.getByLabel("Video 2 URL").fill("");
    await page.getByRole("button", { name: "Save Videos" }).click();
    await expect(page.getByText("Please fill at least one video URL to update.")).toBeVisible();
    await page.getByLabel("Video 1 URL").fill(`  https://example.com/intro-${stamp}.mp4  `);
    await page.getByRole("button", { name: "Save Videos" }).click();
    await expect(page.getByText("Videos updated successfully!")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Video 1 URL")).toHaveValue(`https://example.com/intro-${stamp}.mp4`);
  });

  test("a judge gets 403 on admin pages but may open Submissions", async ({ page }) => {
    await login(page, logins.judge);
    const response = await page.goto("/dashboard/users");
    expect(response?.status()).toBe(403);
    await expect(page.getByText("Your role does not open this page.")).toBeVisible();
    const csv = await page.request.get("/dashboard/exports/standings.csv");
    expect(csv.status()).toBe(403);
    await page.goto("/dashboard/submissions");
    await expect(page.getByRole("heading", { name: "Submissions" })).toBeVisible();
  });

  test("the submissions table sorts by team and by total points on the server", async ({ page }) => {
    await login(page, logins.admin);
    await page.goto("/dashboard/submissions");
    await page.getByRole("columnheader", { name: /^Team/ }).getByRole("link").click();
    await expect(page).toHaveURL(/sort=team&dir=asc/);
    await expect(page.getByRole("columnheader", { name: /^Team/ })).toHaveAttribute("aria-sort", "ascending");
    const teams = await columnTexts(page, 0);
    expect(teams.length).toBeGreaterThan(1);
    expect(teams).toEqual([...teams].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));

    await page.getByRole("columnheader", { name: /^Team/ }).getByRole("link").click();
    await expect(page).toHaveURL(/sort=team&dir=desc/);
    await expect(page.getByRole("columnheader", { name: /^Team/ })).toHaveAttribute("aria-sort", "descending");
    const reversed = await columnTexts(page, 0);
    expect(reversed).toEqual([...teams].reverse());

    await page.goto("/dashboard/submissions?sort=points&dir=desc");
    const points = (await columnTexts(page, 6)).filter((text) => text !== "—").map(Number);
    expect(points).toEqual([...points].sort((a, b) => b - a));
    await expect(page.getByRole("columnheader", { name: /Total points/ })).toHaveAttribute("aria-sort", "descending");
  });
});

test.describe("mentor calls", () => {
  test("a participant's mentor call appears on the admin's Mentors Calls page without a reload", async ({ browser }) => {
    const admin = await (await browser.newContext({ reducedMotion: "reduce" })).newPage();
    await login(admin, logins.admin);
    await admin.goto("/dashboard/mentors");
    await expect(admin.getByRole("heading", { name: "Mentors Calls" })).toBeVisible();
    await admin.evaluate(() => ((window as unknown as { marker: string }).marker = "same page"));

    const participant = await (await browser.newContext({ reducedMotion: "reduce" })).newPage();
    await login(participant, { name: "griffin1", password: logins.participant.password });
    await participant.goto("/home");
    const message = `We are stuck on the runes ${Date.now()}`;
    const form = participant.getByRole("region", { name: "Call a mentor" });
    await form.getByLabel("Message").fill(message);
    await form.getByRole("button", { name: "Send" }).click();

    const row = admin.getByRole("row", { name: new RegExp(message) });
    await expect(row).toContainText("Griffin");
    await expect(row).toContainText("griffin1");
    await expect(row).toContainText(/\d{1,2}:\d{2} (AM|PM)/);
    expect(await admin.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same page");
    await admin.context().close();
    await participant.context().close();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin still creates a team", async ({ page }) => {
    const teamName = `NoScript ${Date.now()}`;
    await login(page, logins.admin);
    await page.goto("/dashboard/teams");
    await page.getByLabel("Name").fill(teamName);
    await page.getByRole("button", { name: "Add team" }).click();
    await expect(page.getByRole("row", { name: new RegExp(teamName) })).toBeVisible();
  });
});
