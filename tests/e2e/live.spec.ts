import { expect, test } from "@playwright/test";
import { logins, signedInPage } from "./support/login.ts";
import { budgetSteps } from "./support/budget.ts";

test.describe("live event pipeline in the browser", () => {
  test("a judge's score moves the participant's scoreboard without a reload", async ({ browser }) => {
    // Steps: two sign-ins, the scoreboard, the submissions, the score, the live row, the live chart.
    budgetSteps(8);
    const participant = await signedInPage(browser, { name: "basilisk1", password: logins.participant.password });
    await participant.goto("/scoreboard");
    const ownRow = participant.getByRole("row", { name: /Basilisk/ });
    await expect(ownRow).toContainText("(your team)");
    // The chart follows the top 10: other tests' teams with a few points may keep Basilisk (0) out of it
    // until this score, which takes it in.
    const line = participant.locator('path.score-chart__line[data-team="Basilisk"]');
    const lineBefore = (await line.count()) ? await line.getAttribute("d") : null;
    // The page must not reload: a marker set now survives only a live update.
    await participant.evaluate(() => ((window as unknown as { marker: string }).marker = "same page"));

    const judge = await signedInPage(browser, logins.judge);
    // Its gate and category only: other tests' newer submissions would push it past the list's first page.
    await judge.goto("/dashboard/submissions?gate=1&category=AI");
    const row = judge.locator("tr", { hasText: "Basilisk" }).filter({ hasText: "Oracle's First Sight" });
    // A fresh value each run (retries included), so there is always a change to see.
    const score = String(50 + (Date.now() % 50));
    await row.getByLabel(/Score \(0 to 100\)/).fill(score);
    await row.getByRole("button", { name: "Send" }).click();
    await expect(judge.getByText("Score saved")).toBeVisible();

    await expect(ownRow.locator(".scoreboard__total")).toHaveText(score);
    // The chart's line of the team moved (or appeared) too, live.
    await expect(line).toHaveAttribute("d", /\S/);
    if (lineBefore) await expect(line).not.toHaveAttribute("d", lineBefore);
    expect(await participant.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same page");
    await participant.context().close();
    await judge.context().close();
  });

  test("an announcement raises the unread badge and a notification pops up, until dismissed", { tag: "@event-wide" }, async ({ browser }) => {
    // Steps: two sign-ins, six pages, two posts, the live badge, the popup, a reload, dismissing it.
    budgetSteps(14);
    const participant = await signedInPage(browser, { name: "griffin3", password: logins.participant.password });
    await participant.goto("/announcement");
    await participant.goto("/scoreboard");
    const announcementLink = participant.getByRole("link", { name: /Announcement/ });
    await expect(announcementLink).not.toContainText("unread");

    const admin = await signedInPage(browser, logins.admin);
    const title = `Gate news ${Date.now()}`;
    await admin.goto("/dashboard");
    await admin.getByLabel("Title", { exact: true }).fill(title);
    await admin.getByLabel("Content", { exact: true }).fill("Gate 4 opens early.");
    await admin.getByRole("button", { name: "Send Announcement" }).click();
    await expect(admin.getByText("Announcement created successfully!")).toBeVisible();

    await expect(announcementLink).toContainText("1 unread");
    await expect(participant.locator('link[rel="icon"]')).toHaveAttribute("href", /favicon-badge\.svg/);

    const message = `Dinner in 10 minutes ${Date.now()}`;
    await admin.goto("/dashboard/notifications");
    await admin.getByLabel("Message", { exact: true }).fill(message);
    await admin.getByRole("button", { name: "Send" }).click();
    await expect(admin.getByText("Notification sent successfully")).toBeVisible();
    await expect(admin.getByText("Notification sent successfully")).toBeHidden({ timeout: 5000 });

    const popup = participant.getByRole("region", { name: /Notification from the organisers/ });
    await expect(popup).toContainText(message);
    // Persisted until dismissed: it is still there after a reload.
    await participant.reload();
    await expect(popup).toContainText(message);
    await popup.getByRole("button", { name: "Close" }).click();
    await expect(popup).toBeHidden();

    // Opening /announcement resets the count; the favicon returns.
    await participant.getByRole("link", { name: /Announcement/ }).click();
    await expect(participant.getByText(title)).toBeVisible();
    await expect(participant.getByRole("link", { name: /Announcement/ })).not.toContainText("unread");
    await expect(participant.locator('link[rel="icon"]')).toHaveAttribute("href", /favicon\.svg/);
    await participant.context().close();
    await admin.context().close();
  });

  test("a frozen scoreboard and chart for participants while admins stay live", { tag: "@event-wide" }, async ({ browser }) => {
    // Three roles in three browsers, and the freeze is always lifted at the end. Steps: three sign-ins,
    // seven pages, four posts, two live rows, a reload, and room for the unfreeze in `finally`.
    budgetSteps(22);
    const admin = await signedInPage(browser, logins.admin);
    await admin.goto("/dashboard/settings");
    await admin.getByRole("button", { name: "Freeze the scoreboard" }).click();
    await expect(admin.getByText("The public scoreboard is frozen")).toBeVisible();
    try {
      const participant = await signedInPage(browser, { name: "griffin2", password: logins.participant.password });
      await participant.goto("/scoreboard");
      await expect(participant.getByText("Scoreboard frozen.")).toBeVisible();
      await expect(participant.getByRole("table", { name: "Teams ranked by total points (frozen)" })).toBeVisible();
      await expect(participant.getByText("Other teams' lines stop at the freeze; your own team's keeps moving.")).toBeVisible();
      const frozenKraken = participant.getByRole("row", { name: /Kraken/ }).locator(".scoreboard__total");
      const frozenTotal = await frozenKraken.textContent();

      await admin.goto("/scoreboard");
      await expect(admin.getByText("you see live standings")).toBeVisible();
      await expect(admin.getByRole("table", { name: "Teams ranked by total points" })).toBeVisible();

      // A judge moves Kraken (80 points for Runes of Order, plus this score).
      const judge = await signedInPage(browser, logins.judge);
      await judge.goto("/dashboard/submissions");
      const row = judge.locator("tr", { hasText: "Kraken" }).filter({ hasText: "Oracle's First Sight" });
      const score = 10 + (Date.now() % 40);
      await row.getByLabel(/Score \(0 to 100\)/).fill(String(score));
      await row.getByRole("button", { name: "Send" }).click();
      await expect(judge.getByText("Score saved")).toBeVisible();

      // The admin sees it live.
      await expect(admin.getByRole("row", { name: /Kraken/ }).locator(".scoreboard__total")).toHaveText(String(80 + score));

      // A sentinel instead of a sleep: a score for the participant's own team, given after Kraken's, does
      // reach them (a team sees its own points while frozen), through the same pipeline and socket, so
      // anything Kraken's score would have sent them has arrived once it shows.
      const ownTotal = participant.getByRole("row", { name: /Griffin/ }).locator(".scoreboard__total");
      const ownBefore = await ownTotal.textContent();
      // Banner of the Clan is scored per criterion, in the judging workspace.
      const banner = judge.locator("tr", { hasText: "Griffin" }).filter({ hasText: "Banner of the Clan" });
      await banner.getByRole("link", { name: "open it in Judging" }).click();
      const clarity = judge.getByLabel(/^Clarity/);
      const ownScore = (await clarity.inputValue()) === "1" ? "2" : "1";
      await clarity.fill(ownScore);
      await judge.getByLabel(/^Originality/).fill("0");
      await judge.getByLabel(/^Craft/).fill("0");
      await judge.getByLabel(/^Craft/).press("Enter");
      await expect(judge.getByRole("status").filter({ hasText: "Score saved" }).first()).toBeVisible();
      await judge.context().close();
      await expect(ownTotal).not.toHaveText(ownBefore ?? "");

      // The participant still sees Kraken as it stood at the freeze, even after a reload.
      await expect(frozenKraken).toHaveText(frozenTotal ?? "");
      await participant.reload();
      await expect(participant.getByRole("row", { name: /Kraken/ }).locator(".scoreboard__total")).toHaveText(frozenTotal ?? "");
      await participant.context().close();
    } finally {
      await admin.goto("/dashboard/settings");
      await admin.getByRole("button", { name: "Unfreeze the scoreboard" }).click();
      await expect(admin.getByText("The public scoreboard is live again")).toBeVisible();
      await admin.context().close();
    }
  });
});
