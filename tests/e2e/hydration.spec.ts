import { expect, test } from "@playwright/test";
import { pageRoles } from "../../app/modules/auth/access.ts";
import { logins, signedInPage } from "./support/login.ts";

/**
 * Every dashboard page hydrates without an error. A value a page's component imports from a `.server`
 * module is empty in the browser build: the server render looks right, then the page breaks once
 * JavaScript runs (the settings page did, with a form schema). Only a browser sees it.
 */
const pages = [
  "/dashboard",
  "/dashboard/teams",
  "/dashboard/awards",
  "/dashboard/users",
  "/dashboard/usersrank",
  "/dashboard/mentors",
  "/dashboard/needs",
  "/dashboard/questions",
  "/dashboard/allchallenges",
  "/dashboard/challenges",
  "/dashboard/getAllChallenges",
  "/dashboard/judge",
  "/dashboard/judges",
  "/dashboard/submissions",
  "/dashboard/notifications",
  "/dashboard/settings",
  "/dashboard/registrations",
  "/dashboard/tokens",
  "/dashboard/import",
  "/dashboard/audit",
  "/dashboard/mailbox",
  "/dashboard/attempts",
  "/dashboard/signals",
];

test.describe("dashboard pages hydrate without an error", () => {
  test.describe.configure({ mode: "parallel" });

  test("the list covers every dashboard page in the page-roles table", () => {
    // Data, not pages: the sidebar's count, the audit trail's CSV, the attempts' downloads. And a code challenge's
    // page, which needs the challenge's id (/dashboard/code/:id: opened, JavaScript running, in code.spec.ts).
    const resources = ["/dashboard/code", "/dashboard/backlog", "/dashboard/exports/audit.csv", "/dashboard/exports/attempts.csv", "/dashboard/exports/team-flags.csv", "/dashboard/exports/ctftime.json", "/dashboard/exports/signals.csv"];
    const declared = pageRoles.map((entry) => entry.path).filter((path) => path.startsWith("/dashboard/") && !resources.includes(path));
    for (const path of declared) expect(pages, path).toContain(path);
  });

  for (const path of pages) {
    test(path, async ({ browser }) => {
      const page = await signedInPage(browser, logins.admin);
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByText("An unexpected error happened")).toHaveCount(0);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});
