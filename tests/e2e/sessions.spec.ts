/**
 * Sessions the server ends (decision 015), as the people involved see them: an admin signs a user out
 * from the Users page, and the user's open page, live on its socket, goes to the login page by itself.
 */
import { expect, test } from "@playwright/test";
import { logins, signedInPage } from "./support/login.ts";
import { budgetSteps, STEP_MS } from "./support/budget.ts";

test.describe("sessions", () => {
  test("an admin sees where a user is signed in and signs them out everywhere; the user's live page goes to /login", async ({ browser, baseURL }) => {
    // Steps: 3 sign-ins, the new user, the live page, the admin's view, the end (up to 4: below), the two pages sent to
    // /login, the admin's page.
    budgetSteps(13);
    const admin = await signedInPage(browser, logins.admin);
    // A user of this test's own (a judge: no team needed), so no other test loses its sessions.
    const judge = { name: `session-judge-${Date.now()}-${test.info().workerIndex}`, password: "judge-password-1" };
    const created = await admin.context().request.post("/api/v1/users", { data: { ...judge, role: "judge" }, headers: { Origin: new URL(baseURL!).origin } });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: number };

    const [phone, laptop] = [await signedInPage(browser, judge), await signedInPage(browser, judge)];
    await laptop.goto("/scoreboard");
    await expect(laptop.getByText("Live", { exact: true })).toBeVisible();

    await admin.goto(`/dashboard/users?view=${id}`);
    const panel = admin.getByRole("region", { name: /Signed in/ });
    await expect(admin.getByRole("heading", { name: "Signed in (2)" })).toBeVisible();
    await expect(panel.getByRole("row")).toHaveCount(3);
    await expect(admin.locator(`tr[data-user-id="${id}"]`)).toContainText("2 sessions");

    admin.once("dialog", (dialog) => void dialog.accept());
    await admin.getByRole("button", { name: "End every session" }).click();
    // The post, then the Users page read again whole (every user the suite made, with their sessions): on a busy CI
    // machine at the end of the suite this took over the default 7 s (30 Nov 2026), so up to 4 steps.
    await expect(admin.getByText("2 sessions ended: those browsers are signed out")).toBeVisible({ timeout: 4 * STEP_MS });
    await expect(admin.getByText("No live session: this user is signed out everywhere.")).toBeVisible();

    // The open page learns it over its socket and re-reads: no session, so the login page.
    await expect(laptop).toHaveURL(/\/login\?redirectTo=%2Fscoreboard/);
    await phone.goto("/scoreboard");
    await expect(phone).toHaveURL(/\/login/);
    // The admin's own session is untouched.
    await admin.goto("/dashboard/users");
    await expect(admin.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
    await Promise.all([admin, phone, laptop].map((page) => page.context().close()));
  });
});
