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
import { logins } from "./support/login.ts";
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

  test("an admin in Arabic: awards, audit trail, judges, challenges, API tokens and teams, right to left", async ({ browser }) => {
    // Steps: a sign-in; the awards page, a give, a revoke; the audit trail; the judges; the add and edit
    // challenge forms; the token page, a create, a revoke; the teams; the two challenge lists; an axe each.
    budgetSteps(30);
    const team = await freshTeam(sql, "Arabic");
    const challenge = await openedChallenge(sql);
    const admin = await arabicPage(browser, logins.admin);
    admin.on("dialog", (dialog) => void dialog.accept());

    await admin.goto("/dashboard/awards");
    await expectArabic(admin);
    await expect(admin.getByRole("heading", { name: "المكافآت", level: 1 })).toBeVisible();
    await admin.getByLabel("الفريق", { exact: true }).selectOption({ label: team.name });
    await admin.getByLabel("النقاط").fill("-2.5");
    await admin.getByLabel(/^الفئة/).selectOption("CS");
    await admin.getByLabel(/^السبب/).fill("تأخّر في التسليم");
    await admin.getByRole("button", { name: "منح المكافأة" }).click();
    await expect(admin.getByText("تمّ منح المكافأة")).toBeVisible();
    const awardRow = admin.locator("tr", { hasText: team.name });
    await expect(awardRow).toContainText("سارية");
    // The signed points keep their order (-2,5: ar-DZ writes a decimal comma, after a left-to-right mark) inside the Arabic row.
    await expect(awardRow.locator("[dir=ltr]")).toHaveText(/^\u200e?-2,5$/);
    await expectAccessible(admin);
    await shoot(admin, "dashboard-awards");
    await awardRow.getByRole("button", { name: /^إلغاء/ }).click();
    await expect(admin.getByText("تمّ إلغاء المكافأة")).toBeVisible();
    await expect(awardRow).toContainText("أُلغيت");

    await admin.goto(`/dashboard/audit?team=${team.id}`);
    await expect(admin.getByRole("heading", { name: "سجل التدقيق", level: 1 })).toBeVisible();
    await expect(admin.getByRole("cell", { name: "إلغاء مكافأة" })).toBeVisible();
    await expectAccessible(admin);
    await shoot(admin, "dashboard-audit");

    await admin.goto("/dashboard/judges");
    await expect(admin.getByRole("heading", { name: "الحكّام", level: 1 })).toBeVisible();
    await expectAccessible(admin);
    await shoot(admin, "dashboard-judges");

    await admin.goto("/dashboard/challenges");
    await expect(admin.getByRole("heading", { name: "إضافة تحديات", level: 1 })).toBeVisible();
    await expect(admin.getByRole("button", { name: "إضافة التحدي" })).toBeVisible();
    await expectAccessible(admin);
    await shoot(admin, "dashboard-challenges");
    await admin.goto(`/dashboard/challenges?edit=${challenge.id}`);
    await expect(admin.getByRole("heading", { name: `تعديل التحدي: ${challenge.title}`, level: 1 })).toBeVisible();
    await shoot(admin, "dashboard-challenge-edit");

    await admin.goto("/dashboard/tokens");
    await expect(admin.getByRole("heading", { name: "رموز API", level: 1 })).toBeVisible();
    await admin.getByLabel("المستخدم").selectOption({ label: `${team.member.name} (مشارك)` });
    await admin.getByLabel(/^الاسم/).fill("arabic-check");
    await admin.getByRole("button", { name: "إنشاء الرمز" }).click();
    await expect(admin.getByText("تمّ إنشاء الرمز: انسخه الآن، فلن يُعرض مجددًا.")).toBeVisible();
    await expectAccessible(admin);
    await shoot(admin, "dashboard-tokens");
    const tokenRow = admin.locator("tr", { hasText: "arabic-check" });
    await tokenRow.getByRole("button", { name: /^إلغاء/ }).click();
    await expect(admin.getByText("تمّ إلغاء الرمز")).toBeVisible();
    await expect(tokenRow).toContainText("أُلغي");

    await admin.goto("/dashboard/teams");
    await expect(admin.getByRole("heading", { name: "الفرق", level: 1 })).toBeVisible();
    await expect(admin.getByRole("columnheader", { name: "عدد الأعضاء" })).toBeVisible();
    await expectAccessible(admin);
    await shoot(admin, "dashboard-teams");

    await admin.goto("/dashboard/allchallenges");
    await expect(admin.getByRole("heading", { name: "كل التحديات", level: 1 })).toBeVisible();
    await expect(admin.getByRole("button", { name: new RegExp(`${challenge.title}.*انقر`) })).toBeVisible();
    await expectAccessible(admin);
    await shoot(admin, "dashboard-allchallenges");

    await admin.goto("/dashboard/getAllChallenges");
    await expect(admin.getByRole("heading", { name: "قائمة التحديات", level: 1 })).toBeVisible();
    await expectAccessible(admin);
    await shoot(admin, "dashboard-getallchallenges");
    await admin.context().close();
  });
});

test("the dashboard's judging, submissions, questions, notifications, home, mentor calls, needs and 404 in Arabic", async ({ browser }) => {
  // Steps: two sign-ins, nine pages and nine axe analyses, the setup.
  budgetSteps(24);
  // A rubric challenge with two answers: the workspace with its criteria.
  const event = await freshChallengeToJudge(sql, 2, { rubric: [{ name: "Clarity", weight: 1, maxPoints: 5 }, { name: "Depth", weight: 2, maxPoints: 10 }] });
  const judge = await arabicPage(browser, event.judge);
  await judge.goto(`/dashboard/judge?challenge=${event.challengeId}`);
  await expectArabic(judge);
  await expect(judge.getByRole("heading", { level: 1, name: "التحكيم" })).toBeVisible();
  await expect(judge.getByRole("heading", { name: "علامتك" })).toBeVisible();
  await expect(judge.getByText("اختصارات لوحة المفاتيح")).toBeVisible();
  // Team names keep their own direction inside the Arabic heading.
  await expect(judge.getByRole("heading", { level: 2, name: /—/ }).locator("bdi").first()).toContainText(event.teams[0]);
  await expectAccessible(judge);
  await shoot(judge, "dash-judge");

  await judge.goto("/dashboard/submissions");
  await expect(judge.getByRole("heading", { level: 1, name: "التسليمات" })).toBeVisible();
  await expect(judge.getByRole("columnheader", { name: /مجموع النقاط/ })).toBeVisible();
  await expectAccessible(judge);
  await shoot(judge, "dash-submissions");
  await judge.context().close();

  // A team's question, so the queue and a thread have something to show.
  const team = await freshTeam(sql, "Arabic");
  const challenge = await openedChallenge(sql);
  const [thread] = await sql<Array<{ id: number }>>`
    insert into requests (kind, message, team_id, challenge_id, user_id)
    select 'question', 'هل يُسمح باستعمال مكتبة خارجية؟', ${team.id}, ${challenge.id}, id from users where name = ${team.member.name} returning id`;
  const admin = await arabicPage(browser, logins.admin);
  const screens: Array<[string, string, string]> = [
    ["/dashboard", "لوحة التحكم", "dash-home"],
    ["/dashboard/notifications", "الإشعارات", "dash-notifications"],
    [`/dashboard/questions?challenge=${challenge.id}`, "الأسئلة والطلبات", "dash-questions"],
    [`/dashboard/questions/${thread.id}`, `سؤال من ${team.name}`, "dash-thread"],
    ["/dashboard/mentors", "طلبات المرشدين", "dash-mentors"],
    ["/dashboard/needs", "احتياجات المستخدمين", "dash-needs"],
    ["/dashboard/no-such-page", "تائه بين البوابات", "dash-404"],
  ];
  for (const [path, heading, name] of screens) {
    await admin.goto(path);
    await expectArabic(admin);
    await expect(admin.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expectAccessible(admin);
    await shoot(admin, name);
  }
  await admin.context().close();
});

test("an admin in Arabic: settings, import (with a preview), users (with a user's sessions), registrations, users rank", async ({ browser }) => {
  // Sign-in 1; five screens × (load, axe, shots) 15; the import's preview (load, read, axe, shots) 4;
  // accounts from a registration (load, create with its hashing, axe, shots) 4.
  budgetSteps(24);
  const admin = await arabicPage(browser, logins.admin);
  const [me] = await sql<Array<{ id: number }>>`select id from users where name = ${logins.admin.name}`;
  const screens = [
    { path: "/dashboard/settings", heading: "الإعدادات", shot: "admin-settings" },
    { path: "/dashboard/import", heading: "الاستيراد", shot: "admin-import" },
    { path: `/dashboard/users?view=${me!.id}`, heading: "المستخدمون", shot: "admin-users" },
    { path: "/dashboard/registrations", heading: "التسجيلات", shot: "admin-registrations" },
    { path: "/dashboard/usersrank", heading: "ترتيب المستخدمين", shot: "admin-usersrank" },
  ];
  for (const screen of screens) {
    await admin.goto(screen.path);
    await expectArabic(admin);
    await expect(admin.getByRole("heading", { level: 1, name: screen.heading })).toBeVisible();
    await expectAccessible(admin);
    await shoot(admin, screen.shot);
  }
  // The import's preview reads the file and writes nothing: its table and its errors in Arabic.
  await admin.goto("/dashboard/import");
  const accounts = admin.getByRole("region", { name: "الفرق والمستخدمون (CSV)" });
  await accounts.getByLabel("الملف").setInputFiles({
    name: "accounts.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("team,name,role,password\nPhoenix,amina-ar-preview,participant,\n,judge-ar-preview,judge,\n"),
  });
  await accounts.getByRole("button", { name: "معاينة" }).click();
  await expect(admin.getByRole("heading", { level: 2, name: /^معاينة: accounts\.csv/ })).toBeVisible();
  await expect(admin.getByRole("button", { name: "استيراد حسابين" })).toBeVisible();
  await expectAccessible(admin);
  await shoot(admin, "admin-import-preview");
  // Accounts made from a registration: the one-time passwords' table, a Latin name beside an Arabic team.
  const stamp = Date.now();
  await sql`insert into registrations (name, last_name, email, phone, national_id, skill, tshirt_size, has_team, team_name)
            values ('Yasmine', ${`Arabi${stamp}`}, ${`arabi-${stamp}@e2e.example`}, '0555', '1234', 'تصميم', 'M', true, ${`الصقور ${stamp}`})`;
  await admin.goto(`/dashboard/registrations?q=arabi${stamp}`);
  await admin.getByLabel(`تحديد Yasmine Arabi${stamp}`).check();
  await admin.getByRole("button", { name: "إنشاء حسابات للمحدَّد" }).click();
  const created = admin.getByRole("table", { name: "الحسابات الجديدة، وقد أُرسل إلى كلٍّ منها رابط لاختيار كلمة مروره" });
  await expect(created).toContainText(`الصقور ${stamp} (فريق جديد)`);
  await expectAccessible(admin);
  await shoot(admin, "admin-registrations-created");
  await admin.context().close();
});
