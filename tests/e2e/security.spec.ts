/**
 * Web security as a browser meets it: headers, cookie flags, cross-site forgery refused on every
 * kind of route, nothing a user typed ever runs as code, downloads that cannot render, secrets never logged.
 */
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { login, logins, openChallenge, participant, signedInPage, signIn } from "./support/login.ts";
import { budgetSteps } from "./support/budget.ts";
import { E2E_SERVER_LOG } from "./support/paths.ts";

const evil = "https://evil.example";

/** Every Content-Security-Policy complaint and script error the page raises. */
function watchForViolations(page: Page) {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));
  return problems;
}

test.describe("web security", () => {
  test("pages carry the security headers, and the session cookie its flags", async ({ page }) => {
    const response = await page.goto("/login");
    const headers = response!.headers();
    expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    // A nonce is the page's own: 300 loads, 300 nonces (the web process hands them out of a pool of random bytes).
    const nonces = new Set<string>();
    for (let load = 0; load < 300; load++) {
      const policy = (await page.request.get("/login")).headers()["content-security-policy"];
      nonces.add(/'nonce-([A-Za-z0-9+/=]{24})'/.exec(policy)?.[1] ?? "none");
    }
    expect(nonces.size).toBe(300);
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"]).toContain("object-src 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("same-origin");
    expect(headers["strict-transport-security"]).toBeDefined();
    expect(headers["x-powered-by"]).toBeUndefined();

    await login(page, logins.admin);
    const session = (await page.context().cookies()).find((cookie) => cookie.name === "__Host-gk_session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: true, path: "/" });
    // Host-only (no Domain attribute): exactly the host the page came from, no leading dot.
    expect(session?.domain).toBe(new URL(page.url()).hostname);
  });

  // One test a role: sixteen screens, each waited for until it has hydrated, shared by both workers.
  test.describe("every screen runs under the policy without a violation", () => {
    test.describe.configure({ mode: "parallel" });
    const screens = [
      { who: "visitor", paths: ["/", "/login", "/register", "/404"] },
      { who: "participant", paths: ["/welcome", "/home", "/gates", "/gate/1", "/scoreboard", "/announcement", "/timer", "/status"] },
      { who: "admin", paths: ["/dashboard", "/dashboard/submissions", "/dashboard/users", "/dashboard/settings"] },
    ] as const;
    for (const { who, paths } of screens) {
      test(`as ${who === "admin" ? "an" : "a"} ${who}`, async ({ browser }) => {
        // Steps: a sign-in, then each screen.
        budgetSteps(paths.length + 1);
        const page =
          who === "visitor"
            ? await (await browser.newContext({ reducedMotion: "reduce" })).newPage()
            : await signedInPage(browser, who === "admin" ? logins.admin : participant("griffin2"));
        const problems = watchForViolations(page);
        // Each page hydrates (its scripts run under the policy) before the next one.
        for (const path of paths) {
          await page.goto(path);
          await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
        }
        expect(problems).toEqual([]);
        await page.context().close();
      });
    }
  });

  test("a state change sent from another site is refused on pages, resource routes and the queue dashboard", async ({ page }) => {
    await login(page, logins.admin);
    const teamName = `Forged ${Date.now()}`;
    const attempts = [
      page.request.post("/dashboard/teams", { headers: { Origin: evil }, form: { intent: "save", name: teamName } }),
      page.request.post("/dashboard/teams", { headers: { Referer: `${evil}/trap` }, form: { intent: "save", name: teamName } }),
      page.request.post("/submition/1/upload", { headers: { Origin: evil }, multipart: { text: "forged" } }),
      page.request.post("/logout", { headers: { Origin: evil } }),
      page.request.put("/dashboard/queues/api/queues/standings/retry/failed", { headers: { Origin: evil } }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status(), response.url()).toBe(403);
      expect(await response.text()).toContain("This request came from another site and was refused.");
    }
    // Nothing happened: still signed in, and no such team.
    await page.goto("/dashboard/teams");
    await expect(page.getByRole("heading", { name: "Teams" })).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(teamName) })).toHaveCount(0);
    // The same post from our own page goes through.
    const own = await page.request.post("/dashboard/teams", { headers: { Origin: new URL(page.url()).origin }, form: { intent: "save", name: teamName }, maxRedirects: 0 });
    expect(own.status()).toBe(302);
  });

  test("an admin's page or download asked for in capitals or percent-encoded is refused to a participant and a judge, as under its own spelling", async ({ browser, baseURL }) => {
    // The router matches routes in any case, on the decoded path: the guards must read the same path (docs/domain.md "Roles").
    const origin = new URL(baseURL!).origin;
    for (const who of [logins.participant, logins.judge]) {
      const page = await signedInPage(browser, who);
      for (const path of ["/DASHBOARD/exports/team-flags.csv", "/%64ashboard/Exports/team-flags.csv"]) {
        const response = await page.request.post(path, { headers: { Origin: origin }, form: { challenge: "1", what: "key" }, maxRedirects: 0 });
        expect(response.status(), `${who.name}: POST ${path}`).toBe(403);
        expect(await response.text()).not.toMatch(/Key \(hex/);
      }
      for (const path of ["/DASHBOARD/exports/audit.csv", "/Dashboard/Users", "/dashboard/%61ttempts"]) {
        const response = await page.request.get(path, { maxRedirects: 0 });
        expect(response.status(), `${who.name}: GET ${path}`).toBe(403);
      }
      await page.context().close();
    }
  });

  test("HTML in announcements, notifications and submission texts is shown as text, never run", { tag: "@event-wide" }, async ({ browser }) => {
    // Steps: two sign-ins, five pages, four posts, the live popup.
    budgetSteps(14);
    const stamp = Date.now();
    const payload = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
    const admin = await signedInPage(browser, logins.admin);
    await admin.goto("/dashboard");
    await admin.getByLabel("Title", { exact: true }).fill(`Alert ${stamp} ${payload}`);
    await admin.getByLabel("Content", { exact: true }).fill(`<b>bold?</b> ${payload}`);
    await admin.getByRole("button", { name: "Send Announcement" }).click();
    await expect(admin.getByText("Announcement created successfully!")).toBeVisible();

    const player = await signedInPage(browser, participant("kraken3"));
    await player.goto("/announcement");
    await expect(player.getByText(`Alert ${stamp} ${payload}`)).toBeVisible();
    await expect(player.getByText(`<b>bold?</b> ${payload}`)).toBeVisible();

    await admin.goto("/dashboard/notifications");
    await admin.getByLabel("Message", { exact: true }).fill(`Notice ${stamp} ${payload}`);
    await admin.getByRole("button", { name: "Send" }).click();
    await expect(player.getByRole("region", { name: /Notification from the organisers/ })).toContainText(`Notice ${stamp} ${payload}`);

    await openChallenge(player, 1, "Runes of Order");
    await player.getByPlaceholder("SUBMIT A TEXT IF IT NEEDED").fill(`Answer ${stamp} ${payload}`);
    await player.getByRole("button", { name: /^(SUBMIT|update)$/ }).click();
    await expect(player.getByText("Submission successful!")).toBeVisible();
    await admin.goto("/dashboard/submissions");
    await expect(admin.getByText(`Answer ${stamp} ${payload}`)).toBeVisible();

    for (const page of [admin, player]) {
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator("img[src=x]").count()).toBe(0);
    }
    await admin.context().close();
    await player.context().close();
  });

  test("a redirect target that a browser would decode off-site stays on this site (the preloader's refresh, without JavaScript)", async ({ browser, baseURL }) => {
    const page = await signedInPage(browser, participant("kraken1"), { javaScriptEnabled: false });
    // Entities the HTML parser decodes in the refresh's URL, a tab the URL parser drops, a backslash it
    // reads as "/", dot segments that resolve to "//".
    const targets = ["/&sol;evil.example", "/&#x2F;evil.example", "/&#47;evil.example", "/\t/evil.example", "/\\evil.example", "/.//evil.example", "/a/..//evil.example"];
    // Steps: a sign-in, then a page and its refresh for each.
    budgetSteps(1 + 2 * targets.length);
    for (const next of targets) {
      await page.goto(`/preloader?next=${encodeURIComponent(next)}`);
      // The refresh fires after 1 s: wait until the page has left the preloader, wherever it went.
      await page.waitForURL((url) => url.pathname !== "/preloader");
      expect(new URL(page.url()).origin, `next=${JSON.stringify(next)} went to ${page.url()}`).toBe(new URL(baseURL!).origin);
    }
    await page.context().close();
  });

  test("an uploaded file downloads as an attachment with a type no browser renders", async ({ browser }) => {
    const player = await signedInPage(browser, participant("griffin3"));
    await openChallenge(player, 1, "Oracle's First Sight");
    await player.getByLabel("Attach a file").setInputFiles({ name: "trap.html", mimeType: "text/html", buffer: Buffer.from("<script>alert(1)</script>") });
    await player.getByRole("button", { name: /^(SUBMIT|update)$/ }).click();
    await expect(player.getByText("Submission successful!")).toBeVisible();
    const href = await player.getByRole("link", { name: "trap.html" }).getAttribute("href");
    const download = await player.request.get(href!);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-disposition"]).toMatch(/^attachment; filename="trap.html"/);
    expect(download.headers()["content-type"]).toBe("application/octet-stream");
    await player.context().close();
  });

  test("a password is never logged, nor sent back to a browser", async ({ page }) => {
    const canary = `Canary-${Date.now()}-pw`;
    await page.goto("/login");
    await page.getByLabel("Username").fill("phoenix2");
    await page.getByLabel("Password").fill(canary);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByRole("alert")).toBeVisible();

    await signIn(page, logins.admin);
    const userName = `canary-${Date.now()}`;
    await page.goto("/dashboard/users");
    await page.getByLabel("Name").fill(userName);
    // The form's field, not the bar's "Change your password" link.
    await page.getByRole("textbox", { name: /^Password/ }).fill(canary);
    await page.getByLabel("Role").selectOption("judge");
    await page.getByRole("button", { name: "Add user" }).click();
    await expect(page.getByText("تمت إضافة المستخدم بنجاح")).toBeVisible();
    // The page and its data never carry a password or its hash.
    const pageData = await page.request.get("/dashboard/users.data");
    const body = await pageData.text();
    expect(body).not.toContain(canary);
    expect(body).not.toMatch(/argon2|passwordHash/);
    await expect(page.locator("body")).not.toContainText(canary);

    // A sentinel request, logged after everything above: once its line is in the file, so is the rest.
    const sentinel = `/log-sentinel-${Date.now()}`;
    await page.request.get(sentinel);
    await expect.poll(() => readFileSync(E2E_SERVER_LOG, "utf8").includes(sentinel)).toBe(true);
    const logged = readFileSync(E2E_SERVER_LOG, "utf8");
    expect(logged.length).toBeGreaterThan(0);
    expect(logged).not.toContain(canary);
    expect(logged).not.toMatch(/\$argon2id\$/);
  });
});
