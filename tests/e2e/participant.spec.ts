import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { logins, openChallenge, participant, signedInPage } from "./support/login.ts";
import { axe } from "./support/axe.ts";
import { budgetSteps } from "./support/budget.ts";
import { storedKeys } from "./support/storage.ts";

// One client per run of the file's hooks: in parallel mode a worker may run this file's afterAll, then another
// of its tests (a client ended once would be ended for that test).
let sql: postgres.Sql;
test.beforeAll(() => {
  sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
});
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});


test.describe("participant journey", () => {
  test("login → welcome → notification → gates → gate → submission (text, file, update) → status → scoreboard → announcement → timer", async ({
    browser,
  }) => {
    // Thirteen screens in a row, three submissions and a download: 22 steps.
    budgetSteps(22);
    const page = await signedInPage(browser, participant("griffin1"), { viaForm: true });
    // Through the preloader (its 500 ms pause is skipped under reduced motion).
    await expect(page).toHaveURL(/\/\/[^/?]+\/welcome$/); // the page itself, not /preloader?next=/welcome
    await expect(page.getByRole("heading", { name: "Welcome, griffin1" })).toBeVisible();
    await expect(page.getByText("The system is activated")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Next meal" })).toBeVisible();

    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/notification$/);
    await expect(page.getByRole("heading", { name: "Are you ready to move forward?" })).toBeVisible();
    await page.getByRole("link", { name: "Yes" }).click();
    await expect(page).toHaveURL(/\/gates$/);
    await expect(page.getByRole("heading", { name: "Enter a Gate" })).toBeVisible();
    await expect(page.getByRole("timer")).toHaveCount(2);

    await page.getByRole("link", { name: /^Next: Gate III/ }).click();
    await expect(page).toHaveURL(/\/gate\/3$/);
    await expect(page.getByText("Problem Solving").first()).toBeVisible();
    await page.getByRole("link", { name: "Next: Bridge of Trials" }).click();
    await expect(page).toHaveURL(/\/submition\/\d+$/);
    await expect(page.getByRole("heading", { name: "Challenge Script" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Challenge Hints" })).toBeVisible();
    await expect(page.getByText("No file available")).toBeVisible();

    // First a text: the button reads SUBMIT and creates the submission.
    const answer = `Dynamic programming over torch states ${Date.now()}`;
    await page.getByPlaceholder("SUBMIT A TEXT IF IT NEEDED").fill(answer);
    await page.getByRole("button", { name: "SUBMIT" }).click();
    await expect(page.getByText("sended successfully!")).toBeVisible();
    await expect(page.getByText("Submission successful!")).toBeVisible();
    await expect(page.getByText(answer)).toBeVisible();
    await expect(page.getByText("pending", { exact: true })).toBeVisible();

    // Then a small file: the button now reads update; the text stays.
    await page.getByLabel("Attach a file").setInputFiles({ name: "bridge-proof.txt", mimeType: "text/plain", buffer: Buffer.from("proof") });
    await page.getByRole("button", { name: "update" }).click();
    await expect(page.getByText("updated successfully!")).toBeVisible();
    await expect(page.getByRole("link", { name: "bridge-proof.txt" })).toBeVisible();
    await expect(page.getByText(answer)).toBeVisible();

    // A text update keeps the stored file.
    const revised = `${answer} (revised)`;
    await page.getByPlaceholder("SUBMIT A TEXT IF IT NEEDED").fill(revised);
    await page.getByRole("button", { name: "update" }).click();
    await expect(page.getByText(revised)).toBeVisible();
    await expect(page.getByRole("link", { name: "bridge-proof.txt" })).toBeVisible();
    const download = await page.request.get((await page.getByRole("link", { name: "bridge-proof.txt" }).getAttribute("href"))!);
    expect(await download.text()).toBe("proof");

    await page.getByRole("link", { name: "Status" }).click();
    await expect(page.getByRole("heading", { name: "Status" })).toBeVisible();
    await expect(page.getByText("Griffin", { exact: true })).toBeVisible();
    await expect(page.getByText(/^#\d+$/)).toBeVisible();
    for (const label of ["CS", "AI", "PS", "GD", "Total points"]) await expect(page.getByText(label, { exact: true })).toBeVisible();

    await page.getByRole("link", { name: "Scoreboard" }).click();
    await expect(page.getByRole("heading", { name: "Scoreboard" })).toBeVisible();
    await page.getByRole("link", { name: /^Announcement/ }).click();
    await expect(page).toHaveURL(/\/announcement$/);
    await page.getByRole("link", { name: "Timer" }).click();
    await expect(page.getByRole("heading", { name: "THE FINAL OF GATES" })).toBeVisible();
    await expect(page.getByRole("timer")).toHaveText(/^\d{2,}:\d{2}:\d{2}$/);
    await page.context().close();
  });

  test("a closed gate shows a countdown and no challenges; an unknown gate is a 404", async ({ browser }) => {
    const page = await signedInPage(browser, participant("kraken1"));
    await page.goto("/gate/4");
    await expect(page.getByRole("heading", { name: "This gate is still sealed" })).toBeVisible();
    await expect(page.getByRole("timer")).toHaveText(/^\d{2,}:\d{2}:\d{2}$/);
    await expect(page.getByRole("link", { name: /^Next/ })).toHaveCount(0);
    await expect(page.locator('a[href^="/submition/"]')).toHaveCount(0);
    const response = await page.goto("/gate/9");
    expect(response?.status()).toBe(404);
    await page.context().close();
  });

  test("a 201 MB file is refused (browser check, then the server's own) and nothing is stored", async ({ browser }) => {
    // The server streams the whole 200 MB to storage before it cuts the upload.
    test.setTimeout(180_000);
    // Sparse: 201 MB on paper, nothing on disk. Playwright refuses buffers over 50 MB, not paths.
    const dir = await mkdtemp(path.join(tmpdir(), "gatekeeper-e2e-"));
    const big = path.join(dir, "too-big.bin");
    await writeFile(big, "");
    await truncate(big, 201 * 1024 * 1024);
    try {
      const page = await signedInPage(browser, participant("phoenix3"));
      await openChallenge(page, 3, "Bridge of Trials");
      await page.getByLabel("Attach a file").setInputFiles(big);
      await expect(page.getByText("File size exceeds 200MB limit")).toBeVisible();
      await expect(page.getByRole("button", { name: "SUBMIT" })).toBeDisabled();
      await page.context().close();

      // Without JavaScript the browser does not check: it posts all 201 MB and the server cuts the upload.
      const before = await storedKeys("submissions/");
      const plain = await signedInPage(browser, participant("phoenix3"), { javaScriptEnabled: false });
      await openChallenge(plain, 3, "Bridge of Trials");
      await plain.getByPlaceholder("SUBMIT A TEXT IF IT NEEDED").fill("with a huge file");
      await plain.getByLabel("Attach a file").setInputFiles(big);
      await plain.getByRole("button", { name: "SUBMIT" }).click();
      await expect(plain.getByText("Error: File size exceeds 200MB limit")).toBeVisible({ timeout: 150_000 });
      await expect(plain.getByPlaceholder("SUBMIT A TEXT IF IT NEEDED")).toHaveValue("with a huge file");
      // Nothing stored: no submission row, no object in the bucket.
      const rows = await sql`select s.id from submissions s join teams t on t.id = s.team_id join challenges c on c.id = s.challenge_id
        where t.name = 'Phoenix' and c.title = 'Bridge of Trials'`;
      expect(rows).toHaveLength(0);
      // Other tests may store files meanwhile: every new object must belong to a submission (no orphan,
      // no partial object of this upload). A row commits moments after its object: poll briefly.
      await expect
        .poll(async () => {
          const added = (await storedKeys("submissions/")).filter((key) => !before.includes(key));
          const owned = added.length ? (await sql`select file_key from submissions where file_key in ${sql(added)}`).map((row) => row.file_key) : [];
          return added.filter((key) => !owned.includes(key));
        })
        .toEqual([]);
      // A fresh GET (a reload would post the form again).
      await plain.goto(new URL(plain.url()).pathname);
      await expect(plain.getByText("Nothing sent yet.")).toBeVisible();
      await plain.context().close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("without JavaScript a text submission and a mentor call still work", async ({ browser }) => {
    // Steps: the login page, its post, the preloader's refresh, the gate, the challenge, the submission,
    // /home, two mentor posts.
    budgetSteps(9);
    const page = await signedInPage(browser, participant("kraken2"), { javaScriptEnabled: false, viaForm: true });
    // The preloader moves on without JavaScript too.
    await expect(page).toHaveURL(/\/preloader\?next=%2Fwelcome|\/preloader\?next=\/welcome|\/welcome$/);
    await expect(page).toHaveURL(/\/\/[^/?]+\/welcome$/); // the page itself, not /preloader?next=/welcome
    await openChallenge(page, 3, "Whispering Stones");
    const answer = `No-JS summary ${Date.now()}`;
    await page.getByPlaceholder("SUBMIT A TEXT IF IT NEEDED").fill(answer);
    await page.getByRole("button", { name: /^(SUBMIT|update)$/ }).click();
    await expect(page.getByText("Submission successful!")).toBeVisible();
    await expect(page.getByText(answer)).toBeVisible();

    await page.goto("/home");
    const mentor = page.getByRole("region", { name: "Call a mentor" });
    await mentor.getByRole("button", { name: "Send" }).click();
    await expect(mentor.getByText("This field is required")).toBeVisible();
    await mentor.getByLabel("Message").fill(`We are stuck on the stones ${Date.now()}`);
    await mentor.getByRole("button", { name: "Send" }).click();
    // Without JavaScript the toast's words are in the page, below the bar.
    await expect(page.getByRole("status").filter({ hasText: "Request sent successfully, please wait!" })).toBeVisible();
    await expect(mentor.getByLabel("Message")).toHaveValue("");
    await page.context().close();
  });

  test("a mentor call and a need with JavaScript show the success toast", async ({ browser }) => {
    const page = await signedInPage(browser, participant("basilisk2"));
    await page.goto("/home");
    const needs = page.getByRole("region", { name: "Needs" });
    await needs.getByLabel("Message").fill(`Two extension cords ${Date.now()}`);
    await needs.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Request sent successfully, please wait!")).toBeVisible();
    await page.context().close();
  });

  test("an admin saves a home video on /welcome; participants see it with a play overlay", { tag: "@event-wide" }, async ({ browser, baseURL }) => {
    const admin = await signedInPage(browser, logins.admin);
    await admin.goto("/welcome");
    const form = admin.getByRole("region", { name: "Home videos" });
    await form.getByRole("button", { name: "Save Videos" }).click();
    await expect(form.getByText("Please provide at least one video URL.")).toBeVisible();
    const url = `${baseURL}/videos/intro-${Date.now()}.mp4`;
    await form.getByLabel("Video 2 URL").fill(url);
    await form.getByRole("button", { name: "Save Videos" }).click();
    await expect(admin.getByText("Videos updated successfully!")).toBeVisible();
    await admin.context().close();

    const page = await signedInPage(browser, participant("phoenix2"));
    await page.goto("/home");
    await expect(page.locator(`video[src="${url}"]`)).toHaveCount(1);
    await expect(page.getByRole("button", { name: /^Play Event video/ }).last()).toBeVisible();
    await page.context().close();
  });
});

/** No serious or critical axe violation on a screen (every rule axe runs, the page analysed in full). */
async function expectNoSeriousViolations(page: Page, label: string) {
  await expect(page.locator("main")).toBeVisible();
  const results = await axe(page).analyze();
  const bad = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect(bad.map((violation) => `${label}: ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
}

// One test a screen: an analysis takes seconds on this machine, and the screens do not depend on each
// other, so both workers share them and each has its own time budget.
test.describe("participant and public screens have no serious or critical axe violations", () => {
  test.describe.configure({ mode: "parallel" });

  for (const path of ["/", "/404"]) {
    test(`${path} (visitor)`, async ({ page }) => {
      await page.goto(path);
      await expectNoSeriousViolations(page, `${path} (visitor)`);
    });
  }

  for (const path of ["/", "/welcome", "/notification", "/home", "/gates", "/gate/1", "/gate/5", "/status", "/scoreboard", "/announcement", "/timer"]) {
    test(`${path} (participant)`, async ({ browser }) => {
      const page = await signedInPage(browser, participant("basilisk3"));
      await page.goto(path);
      await expectNoSeriousViolations(page, path);
      await page.context().close();
    });
  }

  test("a challenge's submission page (participant)", async ({ browser }) => {
    const page = await signedInPage(browser, participant("basilisk3"));
    await openChallenge(page, 1, "Runes of Order");
    await expectNoSeriousViolations(page, new URL(page.url()).pathname);
    await page.context().close();
  });

  test("/preloader (participant), while it loads", async ({ browser }) => {
    const page = await signedInPage(browser, participant("basilisk3"));
    // The preloader moves on once everything has loaded: hold one image to look at it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/theme/medal-2.svg", async (route) => {
      await held;
      await route.continue();
    });
    // Not "load": the held image, requested by the preloader's script, would hold the load event too.
    await page.goto("/preloader?next=/welcome", { waitUntil: "commit" });
    await expect(page.getByRole("progressbar", { name: "Loading" })).toBeVisible();
    await expectNoSeriousViolations(page, "/preloader");
    release();
    await expect(page).toHaveURL(/\/\/[^/?]+\/welcome$/); // the page itself, not /preloader?next=/welcome
    await page.context().close();
  });
});
