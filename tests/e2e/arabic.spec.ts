/**
 * The screens in Arabic (decision 025): the language chosen with the switch or asked for by the browser,
 * right to left from the first server-rendered page, the participant's journey and the judge's in Arabic,
 * axe on each. ARABIC_SCREENSHOTS=<folder> also saves every screen at 1366 and 390 px to look at.
 */
import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { arabicPage, expectAccessible, expectArabic, SHOTS, shoot } from "./support/arabic.ts";
import { budgetSteps } from "./support/budget.ts";
import { freshChallengeToJudge } from "./support/judging.ts";
import { freshTeam, openedChallenge } from "./support/teams.ts";

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

test.describe("Arabic", () => {
  test("the browser's Accept-Language picks Arabic from the first page, and the switch goes back to English without JavaScript", async ({ browser }) => {
    // The browser asks for Arabic (Chromium sends Accept-Language from its locale).
    const context = await browser.newContext({ locale: "ar-DZ", javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto("/login");
    // The server's first answer is already Arabic, right to left: no flash of English.
    const html = await response!.text();
    expect(html).toMatch(/<html lang="ar" dir="rtl">/);
    await expect(page.getByRole("heading", { name: "تسجيل الدخول" })).toBeVisible();
    await page.getByRole("button", { name: "English" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { name: "LOGIN" })).toBeVisible();
    // Remembered: the next page stays English although the browser asks for Arabic.
    await page.goto("/register");
    await expect(page.getByRole("heading", { name: "Register" })).toBeVisible();
    await context.close();
  });

  test("the switch only sends the user back to this site", async ({ request }) => {
    const baseURL = test.info().project.use.baseURL!;
    const response = await request.post("/language", {
      form: { lang: "ar", redirectTo: "https://evil.example/x" },
      headers: { Origin: new URL(baseURL).origin },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    expect(response.headers()["location"]).toBe("/");
    expect(response.headers()["set-cookie"]).toContain("lang=ar");
  });

  test("the API answers errors in the asked language, with the same code", async ({ request }) => {
    const arabic = await request.get("/api/v1/nothing-here", { headers: { "Accept-Language": "ar" } });
    expect(arabic.status()).toBe(404);
    const body = (await arabic.json()) as { code: string; message: string };
    expect(body.code).toBe("not_found");
    expect(body.message).toMatch(/^لا شيء هنا/);
    const english = (await (await request.get("/api/v1/nothing-here")).json()) as { code: string; message: string };
    expect(english).toEqual({ code: "not_found", message: "Nothing here: see /api/v1/openapi.json for the calls." });
  });

  test("a participant's journey: welcome → ready → gates → gate → challenge (submit) → status → scoreboard → announcements → timer", async ({ browser }) => {
    budgetSteps(24);
    const team = await freshTeam(sql, "Arabic");
    const challenge = await openedChallenge(sql);
    const page = await arabicPage(browser, team.member);

    await page.goto("/welcome");
    await expectArabic(page);
    await expect(page.getByRole("heading", { name: `مرحبًا، ${team.member.name}` })).toBeVisible();
    await expect(page.getByRole("heading", { name: "الوجبة القادمة" })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, "welcome");

    await page.getByRole("link", { name: "التالي" }).click();
    await expect(page.getByRole("heading", { name: "هل أنت مستعد للمضي قدمًا؟" })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, "ready");
    await page.getByRole("link", { name: "نعم" }).click();

    await expect(page).toHaveURL(/\/gates$/);
    await expect(page.getByRole("heading", { name: "ادخل بوابة" })).toBeVisible();
    // Countdowns stay left to right inside the Arabic page.
    await expect(page.getByRole("timer").first()).toHaveAttribute("dir", "ltr");
    await expectAccessible(page);
    await shoot(page, "gates");

    await page.goto("/gate/1");
    await expect(page.getByRole("link", { name: "رجوع" })).toBeVisible();
    await expect(page.getByText("الفئة").first()).toBeVisible();
    await expectAccessible(page);
    await shoot(page, "gate");

    await page.getByRole("link", { name: `التالي: ${challenge.title}` }).click();
    await expect(page.getByRole("heading", { name: "نصّ التحدي" })).toBeVisible();
    const answer = `جواب الفريق ${Date.now()}`;
    await page.getByPlaceholder("أرسل نصًّا إن لزم الأمر").fill(answer);
    await page.getByRole("button", { name: "تسليم" }).click();
    // The toast and the banner in Arabic (the server's English message, shown in the page's language).
    await expect(page.getByText("تمّ الإرسال بنجاح!")).toBeVisible();
    await expect(page.getByText("تمّ التسليم بنجاح!")).toBeVisible();
    await expect(page.getByText("قيد الانتظار", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "تحديث" })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, "submission");

    await page.getByRole("navigation", { name: "التنقّل الرئيسي" }).getByRole("link", { name: "الحالة" }).click();
    await expect(page.getByRole("heading", { name: "الحالة" })).toBeVisible();
    await expect(page.getByText("مجموع النقاط")).toBeVisible();
    await expectAccessible(page);
    await shoot(page, "status");

    await page.goto("/scoreboard");
    await expect(page.getByRole("heading", { name: "لوحة الترتيب", level: 1 })).toBeVisible();
    await expect(page.getByRole("columnheader", { name: "المرتبة" })).toBeVisible();
    // Team names keep their own direction inside the Arabic table.
    await expect(page.locator("bdi.scoreboard__name").first()).toBeVisible();
    await expectAccessible(page);
    await shoot(page, "scoreboard");

    await page.goto("/announcement");
    await expect(page.getByRole("heading", { name: "الإعلانات", level: 1 })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, "announcements");

    await page.goto("/timer");
    await expect(page.getByRole("heading", { name: "نهائي البوابات" })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, "timer");

    await page.goto("/home");
    await expect(page.getByRole("heading", { name: "مرحبًا بكم في البوابات" })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, "home");

    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "تائه بين البوابات" })).toBeVisible();
    await shoot(page, "not-found");
    if (SHOTS) {
      await page.goto("/threads/0");
      await page.context().clearCookies({ name: "__gk_session" });
      await page.goto("/login");
      await shoot(page, "login");
      await page.goto("/register");
      await shoot(page, "register");
      await page.goto("/");
      await shoot(page, "intro");
    }
    await page.context().close();
  });

  test("a judge in Arabic: the dashboard's navigation, the workspace's keys by their physical place (an Arabic layout types س on KeyS)", async ({ browser }) => {
    const event = await freshChallengeToJudge(sql, 2);
    const judge = await arabicPage(browser, event.judge);
    await judge.goto(`/dashboard/judge?challenge=${event.challengeId}`);
    await expectArabic(judge);
    await expect(judge.getByRole("navigation", { name: "لوحة التحكم" }).getByRole("link", { name: /التحكيم/ })).toBeVisible();
    const current = judge.getByRole("heading", { level: 2, name: /—/ });
    await expect(current).toContainText(event.teams[0]);
    // What an Arabic keyboard sends for the S key: key "س", code "KeyS". It skips to the next.
    await judge.locator("body").click({ position: { x: 5, y: 5 } });
    await judge.evaluate(() => document.dispatchEvent(new KeyboardEvent("keydown", { key: "س", code: "KeyS", bubbles: true })));
    await expect(current).toContainText(event.teams[1]);
    await expectAccessible(judge);
    await shoot(judge, "judge");
    await judge.context().close();
  });
});
