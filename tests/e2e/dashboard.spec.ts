import { expect, test, type Page } from "@playwright/test";
import { messages } from "../../app/modules/messages.ts";
import { logins, participant, signedInPage, signIn, submitText } from "./support/login.ts";
import { budgetSteps } from "./support/budget.ts";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { freshChallengeToJudge } from "./support/judging.ts";

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

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
    await signIn(page, logins.admin);

    await page.goto("/dashboard/teams");
    await page.getByLabel("Name").fill(teamName);
    await page.getByRole("button", { name: "Add team" }).click();
    await expect(page.getByText("تمت إضافة الفريق بنجاح")).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(teamName) })).toContainText("0");
    await expect(page.getByLabel("Name")).toHaveValue("");

    await page.goto("/dashboard/users");
    await page.getByLabel("Name").fill(userName);
    await page.getByRole("textbox", { name: /^Password/ }).fill("falcon-password");
    await page.getByLabel("Role").selectOption("participant");
    await page.getByLabel("Team").selectOption({ label: teamName });
    await page.getByRole("button", { name: "Add user" }).click();
    await expect(page.getByText("تمت إضافة المستخدم بنجاح")).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(userName) })).toContainText(teamName);
    await page.goto("/dashboard/teams");
    await expect(page.getByRole("row", { name: new RegExp(teamName) }).locator("td").nth(1)).toHaveText("1");
  });

  test("an admin renames a team through edit (the form fills, then resets) and deletes it; a team with submissions is refused", async ({ page }) => {
    // Steps: two pages, seven posts, a client navigation.
    budgetSteps(10);
    page.on("dialog", (dialog) => dialog.accept());
    const stamp = Date.now();
    await signIn(page, logins.admin);
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

    // Renaming to an existing name, in any case or with look-alike characters ("0" for "O"), is refused,
    // and what was typed stays.
    await page.getByRole("link", { name: `Edit Night Owls ${stamp}` }).click();
    // The edit link is a client navigation: typing before the form has filled would type into the old one.
    await expect(page.getByLabel("Name")).toHaveValue(`Night Owls ${stamp}`);
    await page.getByLabel("Name").fill("PH0ENIX");
    await page.getByRole("button", { name: "Save changes" }).click();
    // Beside the button (the only feedback without JavaScript) and as a toast.
    const taken = `⚠️ ${messages.dashboard.teamNameTaken}`;
    await expect(page.getByRole("alert")).toHaveText(taken);
    await expect(page.getByRole("region", { name: /Notifications/ }).getByText(taken)).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue("PH0ENIX");

    await page.goto("/dashboard/teams");
    await page.getByRole("button", { name: "Delete Phoenix" }).click();
    await expect(page.getByText(/⚠️ This team has submissions/)).toBeVisible();
    await page.getByRole("button", { name: `Delete Night Owls ${stamp}` }).click();
    await expect(page.getByText("تم حذف الفريق بنجاح")).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(`Night Owls ${stamp}`) })).toHaveCount(0);
  });

  test("an admin adds a challenge with a PDF attachment, downloads it and toggles its status", async ({ page }) => {
    const title = `Riddle ${Date.now()}`;
    await signIn(page, logins.admin);
    await page.goto("/dashboard/challenges");
    await page.getByRole("button", { name: "Add Challenge" }).click();
    await expect(page.getByText("Title is required")).toBeVisible();
    await expect(page.getByText("Category is required")).toBeVisible();
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Description", { exact: true }).fill("Read the runes.");
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

  test("an admin edits the home page videos", { tag: "@event-wide" }, async ({ page }) => {
    const stamp = Date.now();
    await signIn(page, logins.admin);
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
    await signIn(page, logins.judge);
    const response = await page.goto("/dashboard/users");
    expect(response?.status()).toBe(403);
    await expect(page.getByText("Your role does not open this page.")).toBeVisible();
    // The dashboard's one error boundary keeps the judge's navigation around the refusal, on every page.
    for (const path of ["/dashboard/teams", "/dashboard/needs"]) {
      expect((await page.goto(path))?.status()).toBe(403);
      await expect(page.getByText("Your role does not open this page.")).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Submissions" })).toBeVisible();
    }
    const csv = await page.request.get("/dashboard/exports/standings.csv");
    expect(csv.status()).toBe(403);
    await page.goto("/dashboard/submissions");
    await expect(page.getByRole("heading", { name: "Submissions" })).toBeVisible();
  });

  test("the submissions table sorts by each column on the server, both ways", async ({ page }) => {
    // Steps: the page, then six columns sorted both ways (twelve navigations).
    budgetSteps(13);
    // Every column on screen: below 68rem of box the table folds its priority-3 columns (User, Date) into the
    // first cell (docs/screens.md), as it does on a 1280 px laptop.
    await page.setViewportSize({ width: 1600, height: 900 });
    await signIn(page, logins.admin);
    await page.goto("/dashboard/submissions");
    // Text columns sort by lower(), in code-point order (the local Postgres runs with the C collation).
    const text = (a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);
    // What SQL sorts last in both directions (nulls last): no score yet, a submitter whose account was deleted
    // (other tests delete users).
    const columns: Array<{ header: RegExp; read: () => Promise<string[]>; compare: (a: string, b: string) => number; last?: string }> = [
      { header: /^Team/, read: () => columnTexts(page, 0), compare: text },
      { header: /^User/, read: () => columnTexts(page, 1), compare: text, last: "deleted user" },
      { header: /^Challenge/, read: () => columnTexts(page, 2), compare: text },
      { header: /^Date/, read: () => page.locator("table tbody tr td:nth-child(4) time").evaluateAll((times) => times.map((time) => time.getAttribute("datetime") ?? "")), compare: (a, b) => Date.parse(a) - Date.parse(b) },
      { header: /^Status/, read: () => columnTexts(page, 4), compare: text },
      { header: /^Total points/, read: () => columnTexts(page, 6), compare: (a, b) => Number(a) - Number(b), last: "—" },
    ];
    for (const column of columns) {
      const header = page.getByRole("columnheader", { name: column.header });
      for (const direction of ["ascending", "descending"] as const) {
        await header.getByRole("link").click();
        await expect(header).toHaveAttribute("aria-sort", direction);
        const values = await column.read();
        expect(values.length).toBeGreaterThan(2);
        const scored = column.last ? values.filter((value) => value !== column.last) : values;
        // Unscored submissions (and deleted submitters) come last in both directions.
        if (column.last) expect(values.slice(scored.length).every((value) => value === column.last)).toBe(true);
        const sign = direction === "ascending" ? 1 : -1;
        for (let index = 1; index < scored.length; index++) {
          expect(sign * column.compare(scored[index - 1], scored[index]), `${column.header} ${direction}: ${scored[index - 1]} then ${scored[index]}`).toBeLessThanOrEqual(0);
        }
      }
    }
  });

  test("the submissions filters keep only matching rows, also across a sort", async ({ page }) => {
    await signIn(page, logins.admin);
    await page.goto("/dashboard/submissions?sort=team&dir=asc");
    const filters = page.getByRole("form", { name: "Filter submissions" });
    await filters.getByLabel("Gate").selectOption("1");
    await filters.getByLabel("With status").selectOption("reviewed");
    await filters.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/gate=1/);
    await expect(page).toHaveURL(/sort=team/);
    const challenges = await columnTexts(page, 2);
    expect(challenges.length).toBeGreaterThan(0);
    // Gate 1's challenges as they are now (other tests add their own to the shared event).
    const gateOne = (await sql<Array<{ title: string }>>`select title from challenges where wave = 1`).map((row) => row.title);
    expect(challenges.every((cell) => gateOne.some((title) => cell.includes(title)))).toBe(true);
    expect((await columnTexts(page, 4)).every((status) => status === "reviewed")).toBe(true);

  });

  test("a judge filters to the submissions they have not scored yet", async ({ page, browser }) => {
    // A fresh submission nobody scored, whatever the other tests have judged meanwhile.
    const player = await signedInPage(browser, participant("basilisk3"));
    await submitText(player, 2, "Banner of the Clan", `A banner in one colour ${Date.now()}`);
    await player.context().close();
    await signIn(page, logins.judge);
    await page.goto("/dashboard/submissions");
    const judged = (await columnTexts(page, 7)).filter((cell) => cell.includes("judge:"));
    expect(judged.length).toBeGreaterThan(0);
    const filters = page.getByRole("form", { name: "Filter submissions" });
    await filters.getByLabel("Not yet scored by me").check();
    await filters.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/mine=unscored/);
    await expect(filters.getByLabel("Not yet scored by me")).toBeChecked();
    const judges = await columnTexts(page, 7);
    expect(judges.length).toBeGreaterThan(0);
    expect(judges.filter((cell) => cell.includes("judge:"))).toEqual([]);
  });

  test("the status choice beside a score says what sending does, and sending does it", async ({ page }) => {
    const answer = `Three sentences for a child ${Date.now()}`;
    // A team and challenge of its own (tests/e2e/support/judging.ts): the demo teams' answers are other tests'.
    await freshChallengeToJudge(sql, 1, { texts: [answer] });
    await signIn(page, logins.judge);
    await page.goto("/dashboard/submissions");
    const row = page.locator("tr", { hasText: answer });
    const status = row.getByLabel("Status", { exact: true });
    // A pending submission: a score alone marks it reviewed.
    await expect(status.locator("option")).toHaveText(["Mark reviewed (default)", "Approve", "Reject"]);
    await expect(status).toHaveValue("");
    await row.getByLabel(/Score \(0 to 10\)/).fill("6");
    await status.selectOption({ label: "Approve" });
    await row.getByRole("button", { name: "Send" }).click();
    await expect(row.locator("td").nth(4)).toHaveText("approved");
    await expect(status.locator("option")).toHaveText(["Keep approved (default)", "Reject", "Mark reviewed"]);
    await expect(status).toHaveValue("");
  });

  test("an admin edits a challenge and deletes one without submissions; one with submissions is refused", async ({ page }) => {
    // Steps: two pages, four posts, a client navigation and its form.
    budgetSteps(8);
    page.on("dialog", (dialog) => dialog.accept());
    const title = `Lantern ${Date.now()}`;
    await signIn(page, logins.admin);
    await page.goto("/dashboard/challenges");
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Description", { exact: true }).fill("Light the lantern.");
    await page.getByLabel("Points").fill("80");
    await page.getByLabel("Category").selectOption("PS");
    await page.getByRole("button", { name: "Add Challenge" }).click();
    await expect(page.getByText("تمت إضافة التحدي بنجاح")).toBeVisible();

    await page.goto("/dashboard/getAllChallenges");
    await page.getByRole("link", { name: `Edit ${title}` }).click();
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue(title);
    await expect(page.getByLabel("Points")).toHaveValue("80");
    await page.getByLabel("Title", { exact: true }).fill(`${title} renamed`);
    await page.getByLabel("Wave").selectOption("3");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page).toHaveURL(/\/dashboard\/getAllChallenges$/);
    const row = page.getByRole("row", { name: new RegExp(`${title} renamed`) });
    await expect(row.locator("td").nth(1)).toHaveText("Problem Solving");
    await expect(row.locator("td").nth(2)).toHaveText("3");

    await page.getByRole("button", { name: "Delete Runes of Order" }).click();
    await expect(page.getByText("⚠️ This challenge has submissions and cannot be deleted")).toBeVisible();
    await expect(page.getByRole("row", { name: /Runes of Order/ })).toHaveCount(1);
    await page.getByRole("button", { name: `Delete ${title} renamed` }).click();
    await expect(page.getByRole("row", { name: new RegExp(title) })).toHaveCount(0);
  });
});

test.describe("mentor calls", () => {
  test("a participant's mentor call appears on the admin's Mentors Calls page without a reload", async ({ browser }) => {
    const admin = await signedInPage(browser, logins.admin);
    await admin.goto("/dashboard/mentors");
    await expect(admin.getByRole("heading", { name: "Mentors Calls" })).toBeVisible();
    await admin.evaluate(() => ((window as unknown as { marker: string }).marker = "same page"));

    const participant = await signedInPage(browser, { name: "griffin1", password: logins.participant.password });
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

test.describe("overview pages", () => {
  test("the home cards count users, challenges and submissions; Users Rank lists participants by total; a need reaches Users Needs", async ({ page, browser }) => {
    // Steps: two sign-ins, five pages, two posts.
    budgetSteps(9);
    await signIn(page, logins.admin);
    await page.goto("/dashboard");
    for (const label of ["Users", "Challenges", "Submissions"]) {
      const card = page.locator(".stat-card").filter({ has: page.getByText(label, { exact: true }) });
      await expect(card.locator(".stat-card__value")).toHaveText(/^[1-9]\d*$/);
    }

    await page.goto("/dashboard/usersrank");
    await expect(page.getByRole("heading", { name: "Users Rank", level: 1 })).toBeVisible();
    const headers = await page.locator("table thead th").allInnerTexts();
    expect(headers.map((text) => text.trim())).toEqual(["#", "Team", "User", "AI", "GD", "CS", "PS", "Total score"]);
    const users = await columnTexts(page, 2);
    expect(users).toContain("phoenix1");
    // Participants only: no staff account is ranked.
    expect(users).not.toContain(logins.admin.name);
    expect(users).not.toContain(logins.judge.name);
    const totals = (await columnTexts(page, 7)).map((text) => Number(text.replace(/,/g, "")));
    expect(totals.every(Number.isFinite)).toBe(true);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));

    // Two needs, one after the other (other tests may send needs meanwhile: only their order is ours).
    const participantPage = await signedInPage(browser, participant("kraken2"));
    const stamp = Date.now();
    const [first, second] = [`A spare keyboard ${stamp}`, `A second chair ${stamp}`];
    const needs = participantPage.getByRole("region", { name: "Needs" });
    for (const need of [first, second]) {
      await participantPage.goto("/home");
      await needs.getByLabel("Message").fill(need);
      await needs.getByRole("button", { name: "Send" }).click();
      // Stored: the team's list shows it (the toast may be cut short by the re-read its own event starts).
      await expect(participantPage.getByRole("region", { name: "Your questions and requests" }).getByText(need)).toBeVisible();
    }
    await participantPage.context().close();

    await page.goto("/dashboard/needs");
    await expect(page.getByRole("heading", { name: "Users Needs" })).toBeVisible();
    const row = page.getByRole("row", { name: new RegExp(first) });
    await expect(row).toContainText("Kraken");
    await expect(row).toContainText("kraken2");
    await expect(row).toContainText(/\d{1,2}:\d{2} (AM|PM)/);
    // Newest first.
    const messages = await page.locator("table tbody tr").allInnerTexts();
    const at = (text: string) => messages.findIndex((line) => line.includes(text));
    expect(at(second)).toBeGreaterThanOrEqual(0);
    expect(at(second)).toBeLessThan(at(first));
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a judge scores a submission, and the participant's status page shows it", async ({ page, browser }) => {
    // Steps: two sign-ins, the gate, the challenge, the submission, two submissions pages, the score, the status.
    budgetSteps(9);
    // Phoenix's only AI challenge is Whispering Stones: its AI points are exactly this score.
    const score = String(100 + (Date.now() % 90));
    const player = await signedInPage(browser, participant("phoenix3"));
    await submitText(player, 3, "Whispering Stones", `Three sentences for a child ${Date.now()}`);

    await signIn(page, logins.judge);
    await page.goto("/dashboard/submissions?mine=unscored");
    const row = page.locator("tr", { hasText: "Phoenix" }).filter({ hasText: "Whispering Stones" });
    await row.getByLabel(/Score \(0 to 200\)/).fill(score);
    await row.getByLabel("Comment").fill("Clear and short");
    await row.getByRole("button", { name: "Send" }).click();
    await expect(page).toHaveURL(/mine=unscored/);
    await page.goto("/dashboard/submissions");
    await expect(page.locator("tr", { hasText: "Phoenix" }).filter({ hasText: "Whispering Stones" })).toContainText(`judge: ${score} — Clear and short`);

    // The standings job runs in the worker: the participant's status follows within moments.
    await expect(async () => {
      await player.goto("/status");
      const ai = player.locator(".status-card__facts > div", { has: player.getByRole("term").filter({ hasText: /^AI$/ }) });
      await expect(ai.getByRole("definition")).toHaveText(score, { timeout: 500 });
    }).toPass({ timeout: 15_000 });
    await player.context().close();
  });

  test("an admin still creates a team", async ({ page }) => {
    const teamName = `NoScript ${Date.now()}`;
    await signIn(page, logins.admin);
    await page.goto("/dashboard/teams");
    await page.getByLabel("Name").fill(teamName);
    await page.getByRole("button", { name: "Add team" }).click();
    await expect(page.getByRole("row", { name: new RegExp(teamName) })).toBeVisible();
  });
});
