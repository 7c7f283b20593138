/**
 * What needs the demo event exactly as seeded (no announcement posted yet, for instance): the
 * "fresh-event" project runs these before any other e2e test starts (playwright.config.ts).
 */
import { expect, test } from "@playwright/test";
import { demoVideos } from "../../scripts/demo-event.ts";
import { logins, signedInPage } from "./support/login.ts";
import { budgetSteps } from "./support/budget.ts";

test.describe("a fresh event", () => {
  test("announcements: the empty state, then newest first with title and content", async ({ browser }) => {
    // Steps: two sign-ins, the empty page, two announcements (page, post), the list.
    budgetSteps(8);
    const participant = await signedInPage(browser, { name: "kraken2", password: logins.participant.password });
    await participant.goto("/announcement");
    await expect(participant.getByRole("heading", { level: 1, name: "Announcements" })).toBeVisible();
    await expect(participant.getByText("No announcements yet. You will get a notification as soon as one is posted.")).toBeVisible();

    const admin = await signedInPage(browser, logins.admin);
    const stamp = Date.now();
    for (const [title, content] of [
      [`Gate 3 hints ${stamp}`, "Look twice at the torch."],
      [`Dinner moved ${stamp}`, "Dinner is served at 21:00 in hall B."],
    ]) {
      await admin.goto("/dashboard");
      await admin.getByLabel("Title", { exact: true }).fill(title);
      await admin.getByLabel("Content", { exact: true }).fill(content);
      await admin.getByRole("button", { name: "Send Announcement" }).click();
      await expect(admin.getByText("Announcement created successfully!")).toBeVisible();
    }

    await participant.goto("/announcement");
    const articles = participant.getByRole("article");
    await expect(articles).toHaveCount(2);
    // Newest first, each with its title, content and time.
    await expect(articles.nth(0).getByRole("heading")).toHaveText(`Dinner moved ${stamp}`);
    await expect(articles.nth(0)).toContainText("Dinner is served at 21:00 in hall B.");
    await expect(articles.nth(1).getByRole("heading")).toHaveText(`Gate 3 hints ${stamp}`);
    await expect(articles.nth(1)).toContainText("Look twice at the torch.");
    await expect(articles.nth(0).locator("time")).toHaveText(/^\w{3} \d{1,2} \w{3}, \d{1,2}:\d{2} (AM|PM)$/);
    await expect(participant.getByText(/No announcements yet/)).toHaveCount(0);
    await participant.context().close();
    await admin.context().close();
  });

  test("the demo's two home videos: YouTube's player, and our own file, which plays", async ({ browser }) => {
    const page = await signedInPage(browser, { name: "griffin3", password: logins.participant.password });
    await page.goto("/home");
    const youtubeId = new URL(demoVideos.youtube).searchParams.get("v");
    await expect(page.locator("iframe[title='Event video 1']")).toHaveAttribute("src", `https://www.youtube-nocookie.com/embed/${youtubeId}?autoplay=1&mute=1&controls=1`);
    const video = page.locator("video[aria-label='Event video 2']");
    const src = await video.getAttribute("src");
    expect(src).toMatch(/^\/media\/[0-9a-f-]{36}$/);
    const file = await page.request.get(src!);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toBe("video/webm");
    // The browser reads it as a video (its length known), and it plays from the overlay's button.
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.duration)).toBeGreaterThan(3);
    await page.getByRole("button", { name: "Play Event video 2" }).click();
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0);
    await page.context().close();
  });
});
