import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { demoLogins } from "../../scripts/demo-event.ts";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { axe } from "./support/axe.ts";
import { budgetSteps } from "./support/budget.ts";
import { logins, signedInPage } from "./support/login.ts";
import { freshTeam as freshTeamOf, openedChallenge } from "./support/teams.ts";

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

const freshTeam = (prefix: string) => freshTeamOf(sql, prefix);
const openChallenge = () => openedChallenge(sql);

const mentor = demoLogins.mentor;

test.describe("questions and requests", () => {
  test(
    "a question on a challenge: two organisers see it, one claims it, the other sees it claimed, the reply pops up live, the answer is published to every team",
    { tag: "@event-wide" },
    async ({ browser }) => {
      // Steps: three sign-ins, the challenge, the ask, two queues, the claim, the live claim on the other
      // queue, the thread, the reply, the popup, the team's thread live, the publish, another team's
      // challenge page, /home, two axe analyses.
      budgetSteps(18);
      const team = await freshTeam("Heron");
      const other = await freshTeam("Ibis");
      const challenge = await openChallenge();
      const question = `Is an external API allowed? (${team.name})`;

      const member = await signedInPage(browser, team.member);
      await member.goto(`/submition/${challenge.id}`);
      await member.getByLabel(/^Ask the organisers/).fill(question);
      await member.getByRole("button", { name: "Ask", exact: true }).click();
      await expect(member).toHaveURL(/\/threads\/\d+$/);
      const threadId = Number(new URL(member.url()).pathname.split("/").pop());
      await expect(member.getByTestId("thread-status")).toContainText("Open");
      await expect(member.getByRole("list", { name: "Messages" })).toContainText(question);

      // Both organisers see it in their queue.
      const admin = await signedInPage(browser, logins.admin);
      const sara = await signedInPage(browser, mentor);
      await admin.goto(`/dashboard/questions?challenge=${challenge.id}`);
      await sara.goto(`/dashboard/questions?challenge=${challenge.id}`);
      const adminRow = admin.locator(`tr[data-thread-id="${threadId}"]`);
      const saraRow = sara.locator(`tr[data-thread-id="${threadId}"]`);
      await expect(adminRow).toContainText(question);
      await expect(saraRow).toContainText("Open");
      expect((await axe(sara).include(".dashboard__main").analyze()).violations).toEqual([]);

      // The mentor claims it; the admin's queue shows it claimed, live, without a Claim button.
      await saraRow.getByRole("button", { name: "Claim" }).click();
      await expect(sara).toHaveURL(new RegExp(`/dashboard/questions/${threadId}$`));
      await expect(sara.getByTestId("thread-status")).toContainText("claimed by you");
      await expect(adminRow).toContainText(`Claimed by ${mentor.name}`);
      await expect(adminRow.getByRole("button", { name: "Claim" })).toHaveCount(0);
      await admin.goto(`/dashboard/questions/${threadId}`);
      // An admin may take it over (a mentor who claims and leaves locks nothing); the team reads "an organiser".
      await expect(admin.getByText(`${mentor.name} holds this thread. As an admin you may take it over, answer or close it.`)).toBeVisible();
      await expect(admin.getByRole("button", { name: "Take it over" })).toBeVisible();
      await expect(member.getByTestId("thread-status")).toContainText("an organiser is on it");
      await expect(member.getByTestId("thread-status")).not.toContainText(mentor.name);

      // Her reply reaches the team at once: the notification popup, and the thread itself.
      await sara.getByLabel(/^Your reply/).fill("Yes: any public API, keys not included.");
      await sara.getByRole("button", { name: "Send reply" }).click();
      // Her page shows it answered (the toast may be taken by the re-read her own reply's event starts).
      await expect(sara.getByTestId("thread-status")).toContainText("Answered");
      const popup = member.getByRole("region", { name: /Reply from the organisers/ });
      await expect(popup).toContainText("An organiser answered: Yes: any public API");
      await expect(member.getByTestId("thread-status")).toContainText("Answered");
      await expect(member.getByRole("list", { name: "Messages" })).toContainText("Yes: any public API, keys not included.");
      // The nav's Home link carries the count of answered threads, live.
      await expect(member.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Home\s*1 answered$/ })).toBeVisible();
      expect((await axe(member).include("main").analyze()).violations).toEqual([]);

      // Published for everyone by an admin (a mentor answers; only admins speak to every team): an
      // announcement, linked from the challenge's page of another team.
      await expect(sara.getByRole("button", { name: "Publish as an announcement" })).toHaveCount(0);
      await admin.reload();
      await admin.getByLabel("Title", { exact: true }).fill(`External APIs (${team.name})`);
      await admin.getByRole("button", { name: "Publish as an announcement" }).click();
      const title = `External APIs (${team.name})`;
      await expect.poll(async () => (await sql`select 1 from announcements where title = ${title} and challenge_id = ${challenge.id}`).length).toBe(1);
      const otherMember = await signedInPage(browser, other.member);
      await otherMember.goto(`/submition/${challenge.id}`);
      const answers = otherMember.getByRole("region", { name: "Questions about this challenge" });
      await expect(answers.getByRole("link", { name: `External APIs (${team.name})` })).toBeVisible();
      await otherMember.goto("/announcement");
      await expect(otherMember.getByRole("heading", { name: `External APIs (${team.name})` })).toBeVisible();
      // The other team does not see the thread itself.
      const response = await otherMember.goto(`/threads/${threadId}`);
      expect(response?.status()).toBe(404);
    },
  );

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("a need goes open → answered → closed, the team seeing each step; the mentor gets 403 everywhere else in the dashboard", async ({ browser }) => {
      // Steps: two sign-ins, /home, the need, the thread, the queue, the claim, the reply, the team's
      // reload, the close, the team's reload, five refused pages.
      budgetSteps(16);
      const team = await freshTeam("Crane");
      const need = `Our laptop died, can we get one? (${team.name})`;
      const member = await signedInPage(browser, team.member, { javaScriptEnabled: false });
      await member.goto("/home");
      const needs = member.getByRole("region", { name: "Needs" });
      await needs.getByLabel("Message").fill(need);
      await needs.getByRole("button", { name: "Send" }).click();
      await expect(member.getByRole("status").filter({ hasText: "Request sent successfully, please wait!" })).toBeVisible();
      const item = member.getByRole("region", { name: "Your questions and requests" }).getByRole("listitem").filter({ hasText: need });
      await expect(item).toContainText("Open");
      await item.getByRole("link").click();
      const threadUrl = member.url();
      const threadId = Number(new URL(threadUrl).pathname.split("/").pop());
      await expect(member.getByTestId("thread-status")).toContainText("Open");

      const sara = await signedInPage(browser, mentor, { javaScriptEnabled: false });
      await sara.goto("/dashboard/questions?kind=needs");
      await sara.locator(`tr[data-thread-id="${threadId}"]`).getByRole("button", { name: "Claim" }).click();
      await expect(sara).toHaveURL(new RegExp(`/dashboard/questions/${threadId}$`));
      // A reply typed empty is refused on the page, and nothing is lost.
      await sara.getByRole("button", { name: "Send reply" }).click();
      await expect(sara.getByText("Write a message first.")).toBeVisible();
      await sara.getByLabel(/^Your reply/).fill("Yes: come to the help desk by gate 2.");
      await sara.getByRole("button", { name: "Send reply" }).click();
      await expect(sara.getByTestId("thread-status")).toContainText("Answered");

      await member.goto(threadUrl);
      await expect(member.getByTestId("thread-status")).toContainText("Answered");
      await expect(member.getByRole("list", { name: "Messages" })).toContainText("Yes: come to the help desk by gate 2.");
      await member.getByLabel("Answer back").fill("On our way, thanks!");
      await member.getByRole("button", { name: "Send" }).click();
      await expect(member.getByRole("list", { name: "Messages" })).toContainText("On our way, thanks!");

      await sara.goto(`/dashboard/questions/${threadId}`);
      await sara.getByRole("button", { name: "Close the thread" }).click();
      await expect(sara.getByTestId("thread-status")).toContainText("Closed");
      await member.goto(threadUrl);
      await expect(member.getByTestId("thread-status")).toContainText("Closed");
      await expect(member.getByLabel("Answer back")).toHaveCount(0);

      // The mentor role: the questions, and nothing else of the dashboard.
      for (const page of ["/dashboard", "/dashboard/submissions", "/dashboard/judge", "/dashboard/users", "/dashboard/settings"]) {
        const refused = await sara.goto(page);
        expect(refused?.status(), page).toBe(403);
      }
    });
  });
});
