import { expect, test } from "@playwright/test";
import { budgetSteps } from "./support/budget.ts";
import { logins, signedInPage } from "./support/login.ts";

test.describe("first-blood webhook settings", () => {
  test("an admin saves an https address, copies the secret shown once, and is told why an http address is refused", async ({ browser }) => {
    // Steps: the sign-in, the page, a refused save, a save, the reload.
    budgetSteps(6);
    const admin = await signedInPage(browser, logins.admin);
    await admin.goto("/dashboard/settings");
    const section = admin.getByRole("region", { name: "First-blood webhook" });
    const address = section.getByLabel("Webhook address");

    await address.fill("http://chat.example.org/hooks/1");
    await section.getByRole("button", { name: "Save webhook" }).click();
    await expect(section.getByText(/must start with https:\/\//)).toBeVisible();
    await expect(address).toHaveValue("http://chat.example.org/hooks/1");

    // A name that never resolves (RFC 6761): were a first blood queued meanwhile, it would reach no one.
    await address.fill("https://chat.invalid/hooks/1");
    await section.getByLabel("Format").selectOption("slack");
    await section.getByRole("button", { name: "Save webhook" }).click();
    const secret = section.getByLabel("Signing secret (shown once)");
    // The first save makes the secret; a later one (this spec run again) keeps it and says "saved".
    await expect(secret.or(admin.getByText("First-blood webhook saved."))).toBeVisible();
    if (await secret.isVisible()) await expect(secret).toHaveValue(/^whsec_[0-9a-f]{64}$/);

    await admin.reload();
    await expect(section.getByLabel("Signing secret (shown once)")).toHaveCount(0);
    await expect(address).toHaveValue("https://chat.invalid/hooks/1");
    await expect(section.getByLabel("Format")).toHaveValue("slack");
    // Turned off again, so other specs' events post nothing.
    await address.fill("");
    await section.getByRole("button", { name: "Save webhook" }).click();
    await expect(admin.getByText("First-blood webhook turned off.")).toBeVisible();
    await admin.context().close();
  });
});
