import { expect, test } from "@playwright/test";
import { login, logins, signIn } from "./support/login.ts";

test.describe("HTTP API through the real server", () => {
  test("an admin creates a token, a script reads the scoreboard with it (ETag, 304), then the token is revoked", async ({ page, request }) => {
    await signIn(page, logins.admin);
    await page.goto("/dashboard/tokens");
    await page.getByLabel("User").selectOption({ label: `${logins.judge.name} (Judge)` });
    // Its own name each run: a retry must revoke this token, not the one a failed attempt left.
    const tokenName = `Big screen ${Date.now()}`;
    await page.getByLabel("Name (what it is for)").fill(tokenName);
    await page.getByRole("button", { name: "Create token" }).click();
    const token = await page.getByLabel("Token", { exact: true }).inputValue();
    expect(token).toMatch(/^gk_[0-9A-Za-z]{40}$/);

    const headers = { Authorization: `Bearer ${token}` };
    const first = await request.get("/api/v1/scoreboard", { headers });
    expect(first.status()).toBe(200);
    expect((await first.json()).teams.length).toBeGreaterThan(0);
    // Other tests score in parallel and may move the board between two reads: ask again with the newest
    // ETag until one read of an unchanged board answers 304.
    await expect
      .poll(async () => {
        const etag = (await request.get("/api/v1/scoreboard", { headers })).headers()["etag"];
        return (await request.get("/api/v1/scoreboard", { headers: { ...headers, "If-None-Match": etag } })).status();
      })
      .toBe(304);
    // server.ts answers GET ahead of Remix; every other method still reaches the route: 405, and what is allowed.
    const posted = await request.post("/api/v1/scoreboard", { headers });
    expect([posted.status(), posted.headers()["allow"]]).toEqual([405, "GET"]);
    const visitor = await request.get("/api/v1/scoreboard", { headers: { Cookie: "" } });
    expect(visitor.status()).toBe(401);

    page.on("dialog", (dialog) => dialog.accept());
    await page.reload();
    await page.getByRole("button", { name: `Revoke ${tokenName}` }).click();
    await expect(page.getByText("Token revoked")).toBeVisible();
    const refused = await request.get("/api/v1/auth/me", { headers });
    expect(refused.status()).toBe(401);
    expect(await refused.json()).toMatchObject({ code: "unauthenticated" });
  });

  test("a page of the site may post with its cookie; another site may not", async ({ page, baseURL }) => {
    await login(page, { name: "griffin1", password: logins.participant.password });
    const fromOurPage = await page.evaluate(async () => {
      const response = await fetch("/api/v1/mentors", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ message: "API e2e" }) });
      return response.status;
    });
    expect(fromOurPage).toBe(201);
    const cookies = await page.context().cookies();
    const forged = await page.context().request.post(`${baseURL}/api/v1/mentors`, {
      headers: { Origin: "https://evil.example", Cookie: cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ") },
      data: { message: "forged" },
    });
    expect(forged.status()).toBe(403);
    expect(await forged.json()).toMatchObject({ code: "forbidden_origin" });
  });

  test("the guide lists the calls and links the OpenAPI document", async ({ page, request }) => {
    await page.goto("/docs/api");
    await expect(page.getByRole("heading", { name: "Gatekeeper API", level: 1 })).toBeVisible();
    await expect(page.getByText("GET /api/v1/scoreboard")).toBeVisible();
    const document = await request.get("/api/v1/openapi.json");
    expect((await document.json()).openapi).toBe("3.1.0");
    const unknown = await request.get("/api/v1/nothing-here");
    expect(unknown.status()).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "not_found" });
  });
});

test.describe("bulk import without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin previews a CSV with an error, fixes it, imports it and sees the generated passwords once", async ({ page }) => {
    const stamp = Date.now();
    await signIn(page, logins.admin);
    await page.goto("/dashboard/import");
    const section = page.getByRole("region", { name: "Teams and users (CSV)" });
    const file = (rows: string) => ({ name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(`team,name,role,password\n${rows}`) });

    await section.getByLabel("File").setInputFiles(file(`Owls ${stamp},owl-a-${stamp},participant,\nOwls ${stamp},owl-b-${stamp},wizard,\n`));
    await section.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByText("1 row has errors: nothing was imported.")).toBeVisible();
    await expect(page.getByRole("row", { name: /Row 3/ })).toContainText("The role must be admin, judge or participant");
    await expect(page.getByRole("button", { name: /^Import/ })).toHaveCount(0);

    await page.getByRole("region", { name: "Teams and users (CSV)" }).getByLabel("File").setInputFiles(file(`Owls ${stamp},owl-a-${stamp},participant,\nOwls ${stamp},owl-b-${stamp},participant,\n`));
    await page.getByRole("region", { name: "Teams and users (CSV)" }).getByRole("button", { name: "Preview" }).click();
    await expect(page.getByRole("row", { name: new RegExp(`owl-b-${stamp}`) })).toContainText("(new team)");
    await page.getByRole("button", { name: "Import 2 accounts" }).click();

    await expect(page.getByRole("heading", { name: "2 accounts imported" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Download generated logins (CSV)" })).toBeVisible();
    const password = (await page.getByRole("row", { name: new RegExp(`owl-a-${stamp}`) }).locator(".secret-value").innerText()).trim();
    expect(password).toMatch(/^\w{4}-\w{4}-\w{4}-\w{4}$/);

    await page.goto("/dashboard/teams");
    await expect(page.getByRole("row", { name: new RegExp(`Owls ${stamp}`) }).locator("td").nth(1)).toHaveText("2");
  });
});
