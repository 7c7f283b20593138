/**
 * Nothing English is left on an Arabic screen (decision 025). Every screen, participant and dashboard, is
 * opened with the `lang=ar` cookie: it is Arabic and right to left, axe finds nothing, and no visible text
 * holds a run of three Latin letters that is not a name: the event's content read from the e2e database
 * (teams, users, challenges, gates, announcements…), or one of the few words of ALLOWED below. Then the
 * same screen in English: axe finds nothing there either.
 *
 * On each screen, in both languages, every text people wrote (organisers' gates, challenges, announcements,
 * notifications; teams', users' and judges' names, questions, answers, reasons…: writtenTexts) takes its
 * direction from its own content: it sits in a <bdi> or in an element with dir="auto" (or, inside a
 * translated sentence, between U+2068 and U+2069). An English title in an Arabic page, or an Arabic name in
 * an English one, would otherwise take the page's direction and lose its punctuation to the wrong end.
 *
 * A new screen is one line of SCREENS. ARABIC_SCREENSHOTS=<folder> saves each screen in Arabic at 1366
 * and 390 px.
 */
import { createHash, randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { accessibilityViolations, arabicPage, expectArabic, SHOTS, shoot } from "./support/arabic.ts";
import { budgetSteps } from "./support/budget.ts";
import { freshChallengeToJudge } from "./support/judging.ts";
import { logins } from "./support/login.ts";
import { freshTeam, openedChallenge } from "./support/teams.ts";

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });

/**
 * Latin words an Arabic screen may show, each for a reason. Names of the event's content come from the
 * database (contentOf); these are the rest.
 */
const ALLOWED = [
  "Gatekeeper", // the platform's name (docs/glossary.md: names stay as they are)
  "English", // the language switch offers each language in its own name
  "AI", "CS", "PS", "GD", // the category codes (docs/glossary.md)
  "CSV", "JSON", "API", "PDF", "MB", "KB", // formats and units, written so in Arabic too
  "Discord", "Instagram", "LinkedIn", "GitHub", // the event's pages elsewhere, by their own names (scoreboard, registration)
  "Slack", "CTFtime", // the organisers' chat and the CTF calendar, by their own names (first-blood webhook, results export)
  "XXL", // a T-shirt size (S to XXL), written so everywhere
  "alt", "Enter", "Ctrl", // keys as they are printed on the keyboard (the toasts' "alt+T", the judge's "Save and next (Enter)")
  "jpg", "png", "pdf", "docx", // file types as their names end (the attachment's accepted files)
  "wave", // the challenges file's column (import), named so in both languages: CSV and JSON headers do not change
  "Python", "Java", "JavaScript", "Node", // programming languages by their own names (a code challenge's languages)
  "RMSE", "MAE", "ROC", "AUC", // the prediction metrics' abbreviations, written so in Arabic too
];

/** What the screens are checked on: made once, by SQL, for this file. */
interface Fixture {
  team: Awaited<ReturnType<typeof freshTeam>>;
  challenge: { id: number; title: string };
  threadId: number;
  judging: Awaited<ReturnType<typeof freshChallengeToJudge>>;
  /** A live set-password link of the team's member (its page's form). */
  linkToken: string;
  /** The demo's challenges checked by tests, by a metric and by a flag (their own pages). */
  checked: { code: number; predictions: number; flag: number };
}

type Who = "nobody" | "participant" | "admin" | "judge";
interface Screen {
  readonly name: string;
  readonly who: Who;
  readonly path: (fixture: Fixture) => string;
}

const at = (path: string) => () => path;

/** Every screen, participant and public first, then the dashboard's (every app/routes/dashboard.*.tsx that renders a page). */
const SCREENS: { participant: readonly Screen[]; dashboard: readonly Screen[] } = {
  participant: [
    { name: "intro", who: "nobody", path: at("/") },
    { name: "login", who: "nobody", path: at("/login") },
    { name: "register", who: "nobody", path: at("/register") },
    { name: "forgot-password", who: "nobody", path: at("/forgot-password") },
    { name: "set-password", who: "nobody", path: (f) => `/set-password?token=${f.linkToken}` },
    { name: "set-password-not-found", who: "nobody", path: at("/set-password?token=no-such-link") },
    { name: "api-docs", who: "nobody", path: at("/docs/api") },
    { name: "welcome", who: "participant", path: at("/welcome") },
    { name: "ready", who: "participant", path: at("/preloader") },
    { name: "home", who: "participant", path: at("/home") },
    { name: "gates", who: "participant", path: at("/gates") },
    { name: "gate", who: "participant", path: at("/gate/1") },
    { name: "challenge", who: "participant", path: (f) => `/submition/${f.challenge.id}` },
    { name: "question", who: "participant", path: (f) => `/submition/${f.challenge.id}/question` },
    { name: "flag-challenge", who: "participant", path: (f) => `/submition/${f.checked.flag}` },
    { name: "code", who: "participant", path: (f) => `/code/${f.checked.code}` },
    { name: "predictions", who: "participant", path: (f) => `/predictions/${f.checked.predictions}` },
    { name: "thread", who: "participant", path: (f) => `/threads/${f.threadId}` },
    { name: "status", who: "participant", path: at("/status") },
    { name: "scoreboard", who: "participant", path: at("/scoreboard") },
    { name: "announcements", who: "participant", path: at("/announcement") },
    { name: "notifications", who: "participant", path: at("/notification") },
    { name: "timer", who: "participant", path: at("/timer") },
    { name: "account-password", who: "participant", path: at("/account/password") },
    { name: "not-found", who: "participant", path: at("/no-such-page") },
  ],
  dashboard: [
    { name: "dashboard", who: "admin", path: at("/dashboard") },
    { name: "dashboard-challenges", who: "admin", path: at("/dashboard/challenges") },
    { name: "dashboard-allchallenges", who: "admin", path: at("/dashboard/allchallenges") },
    { name: "dashboard-getAllChallenges", who: "admin", path: at("/dashboard/getAllChallenges") },
    { name: "dashboard-submissions", who: "admin", path: at("/dashboard/submissions") },
    { name: "dashboard-code", who: "admin", path: (f) => `/dashboard/code/${f.checked.code}` },
    { name: "dashboard-code-judge", who: "judge", path: (f) => `/dashboard/code/${f.checked.code}` },
    { name: "dashboard-predictions", who: "admin", path: (f) => `/dashboard/predictions/${f.checked.predictions}` },
    { name: "dashboard-attempts", who: "admin", path: at("/dashboard/attempts") },
    { name: "dashboard-attempts-sharing", who: "admin", path: at("/dashboard/attempts?view=sharing") },
    { name: "dashboard-signals", who: "admin", path: at("/dashboard/signals") },
    { name: "dashboard-judge", who: "judge", path: (f) => `/dashboard/judge?challenge=${f.judging.challengeId}` },
    { name: "dashboard-judges", who: "admin", path: at("/dashboard/judges") },
    { name: "dashboard-teams", who: "admin", path: at("/dashboard/teams") },
    { name: "dashboard-users", who: "admin", path: at("/dashboard/users") },
    { name: "dashboard-usersrank", who: "admin", path: at("/dashboard/usersrank") },
    { name: "dashboard-awards", who: "admin", path: at("/dashboard/awards") },
    { name: "dashboard-import", who: "admin", path: at("/dashboard/import") },
    { name: "dashboard-registrations", who: "admin", path: at("/dashboard/registrations") },
    { name: "dashboard-notifications", who: "admin", path: at("/dashboard/notifications") },
    { name: "dashboard-questions", who: "admin", path: at("/dashboard/questions") },
    { name: "dashboard-question", who: "admin", path: (f) => `/dashboard/questions/${f.threadId}` },
    { name: "dashboard-mentors", who: "admin", path: at("/dashboard/mentors") },
    { name: "dashboard-needs", who: "admin", path: at("/dashboard/needs") },
    { name: "dashboard-settings", who: "admin", path: at("/dashboard/settings") },
    { name: "dashboard-tokens", who: "admin", path: at("/dashboard/tokens") },
    { name: "dashboard-audit", who: "admin", path: at("/dashboard/audit") },
    { name: "dashboard-mailbox", who: "admin", path: at("/dashboard/mailbox") },
    { name: "dashboard-404", who: "admin", path: at("/dashboard/404") },
    { name: "dashboard-not-found", who: "admin", path: at("/dashboard/no-such-page") },
  ],
};

let fixture: Fixture | undefined;

async function setUp(): Promise<Fixture> {
  if (fixture) return fixture;
  const team = await freshTeam(sql, "Screens");
  const challenge = await openedChallenge(sql);
  const [member] = await sql<Array<{ id: number }>>`select id from users where name = ${team.member.name}`;
  const [admin] = await sql<Array<{ id: number }>>`select id from users where name = ${logins.admin.name}`;
  // The team has answered (status, challenge page) and asked a question an organiser answered (thread).
  await sql`insert into submissions (team_id, challenge_id, user_id, text) values (${team.id}, ${challenge.id}, ${member.id}, 'Our answer, in a few words')`;
  const [thread] = await sql<Array<{ id: number }>>`
    insert into requests (kind, message, user_id, team_id, challenge_id) values ('question', 'Is a PDF fine for the answer?', ${member.id}, ${team.id}, ${challenge.id}) returning id`;
  await sql`insert into request_messages (request_id, author_id, from_team, body) values (${thread.id}, ${admin.id}, false, 'Yes, a PDF is fine.')`;
  // Arabic written by people, for the English screens' direction check: the team thanks the organisers.
  await sql`insert into request_messages (request_id, author_id, from_team, body) values (${thread.id}, ${member.id}, true, 'شكرًا لكم على الجواب!')`;
  // An award in each language (status, awards), an announcement in English only (an Arabic reader reads its
  // English) and a notification in both (the dashboard shows the last).
  await sql`insert into awards (team_id, points_centi, reason, given_by) values (${team.id}, 500, 'For the clearest write-up', ${admin.id}), (${team.id}, -200, 'تأخّر في التسليم', ${admin.id})`;
  await sql`insert into announcements (title, content, created_by) values ('Lunch is served in Hall B', 'Bring your badge, please.', ${admin.id})`;
  await sql`insert into notifications (message, message_ar, sent_by) values ('Doors close at midnight.', 'تُغلق الأبواب عند منتصف الليل.', ${admin.id})`;
  const judging = await freshChallengeToJudge(sql, 2);
  // A set-password link as the mail carries it: <selector>.<verifier>, only the verifier's SHA-256 stored.
  const [selector, verifier] = [randomBytes(16).toString("base64url"), randomBytes(32).toString("base64url")];
  await sql`insert into password_links (user_id, purpose, selector, verifier_hash, expires_at)
    values (${member.id}, 'set', ${selector}, ${createHash("sha256").update(verifier).digest("hex")}, now() + interval '1 day')`;
  const checkedBy = async (checking: string) => (await sql<Array<{ id: number }>>`select id from challenges where checking = ${checking} and status = 'active' order by wave, id limit 1`)[0].id;
  const checked = { code: await checkedBy("tests"), predictions: await checkedBy("metric"), flag: await checkedBy("flag") };
  fixture = { team, challenge, threadId: thread.id, judging, linkToken: `${selector}.${verifier}`, checked };
  return fixture;
}

/**
 * The event's content, as the database holds it: the names and texts people wrote, which an Arabic screen
 * shows as they are. Read when a screen is checked, so what the tests wrote meanwhile is in it too, and with
 * what the audit trail recorded (a team renamed by another test meanwhile is shown there by its old name).
 */
async function contentOf(): Promise<string[]> {
  const rows = await sql<Array<{ text: string | null }>>`
    select name as text from teams union all select division from teams
    union all select name from users
    union all select title from challenges union all select description from challenges union all select description_ar from challenges
    union all select hints from challenges
    union all select jsonb_path_query(subtasks, 'strict $[*].name') #>> '{}' from code_challenges union all select version from runner_languages
    union all select id_column from prediction_challenges union all select target_column from prediction_challenges
    union all select attachment_name from challenges union all select category::text from challenges
    union all select name from challenge_criteria
    union all select text from submissions union all select file_name from submissions
    union all select comment from submission_scores
    union all select title from gates union all select description from gates
    union all select label from meals
    union all select title from announcements union all select content from announcements
    union all select message from notifications
    union all select message from requests union all select body from request_messages
    union all select reason from awards
    union all select name from api_tokens union all select prefix from api_tokens
    union all select unnest(array[name, last_name, email, university, major, skill, team_name, linkedin, portfolio]) from registrations
    union all select unnest(array[name, time_zone, video1, video2]) from event_settings
    union all select unnest(divisions) from event_settings
    union all select user_agent from sessions union all select actor_name from audit_log
    union all select jsonb_path_query(coalesce(before, 'null'::jsonb), 'strict $.** ? (@.type() == "string")') #>> '{}' from audit_log
    union all select jsonb_path_query(coalesce(after, 'null'::jsonb), 'strict $.** ? (@.type() == "string")') #>> '{}' from audit_log`;
  return [...new Set(rows.map((row) => row.text?.replace(/\s+/g, " ").trim()).filter((text): text is string => !!text && /[A-Za-z]{3}/.test(text)))];
}

/**
 * The screen's visible texts: its text nodes and the attributes people see or hear (placeholder, title,
 * aria-label, alt, a button's value), leaving out what is not the interface's own words: <bdi> (a name),
 * what is written left to right on purpose ([dir=ltr]: codes, countdowns, URLs), code, kbd, pre, <time>,
 * anything marked data-user-content, and the audit trail's values as recorded ([data-recorded]: its
 * evidence, shown as stored in either language).
 */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const SKIP = "bdi, [dir=ltr], code, kbd, pre, samp, time, script, style, noscript, template, textarea, [data-user-content], [data-recorded]";
    const shown = (element: Element) => {
      // An <option> shows through its <select>.
      const box = element.closest("select") ?? element;
      return box.checkVisibility({ checkVisibilityCSS: true });
    };
    const texts: string[] = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      const text = node.textContent?.trim();
      if (!element || !text || element.closest(SKIP) || !shown(element)) continue;
      texts.push(text);
    }
    for (const element of document.body.querySelectorAll("[placeholder], [title], [aria-label], img[alt], input[type=submit], input[type=button]")) {
      if (element.closest(SKIP) || !shown(element)) continue;
      for (const name of ["placeholder", "title", "aria-label", "alt"]) {
        const value = element.getAttribute(name)?.trim();
        if (value) texts.push(value);
      }
      if (element instanceof HTMLInputElement && (element.type === "submit" || element.type === "button") && element.value) texts.push(element.value);
    }
    return texts;
  });
}

/**
 * What people wrote that screens show as written (never translated): the texts whose direction must come from
 * their own content. Read when a screen is checked, as contentOf.
 */
async function writtenTexts(): Promise<string[]> {
  const rows = await sql<Array<{ text: string | null }>>`
    select name as text from teams union all select division from teams union all select name from users
    union all select title from challenges union all select title_ar from challenges
    union all select description from challenges union all select description_ar from challenges union all select hints from challenges
    union all select name from challenge_criteria union all select text from challenge_hints
    union all select text from submissions union all select comment from submission_scores
    union all select title from gates union all select title_ar from gates union all select description from gates union all select description_ar from gates
    union all select title from announcements union all select title_ar from announcements
    union all select content from announcements union all select content_ar from announcements
    union all select message from notifications union all select message_ar from notifications
    union all select message from requests union all select body from request_messages
    union all select reason from awards union all select name from api_tokens
    union all select unnest(array[name, last_name, team_name, university, major]) from registrations
    union all select name from event_settings union all select unnest(divisions) from event_settings`;
  return [...new Set(rows.map((row) => row.text?.replace(/\s+/g, " ").trim()).filter((text): text is string => !!text))];
}

/**
 * The texts people wrote that the screen shows without a direction of their own: a text node holding one (or,
 * 20 characters or more, a part of one: a description in paragraphs) whose nearest element with a direction is
 * not a <bdi> nor dir="auto", and which is not isolated in its sentence by U+2068…U+2069. A text in the
 * other script (Latin on an Arabic page, Arabic on an English one) counts from 3 letters; one in the page's
 * script from 12 characters (a shorter one could be the interface's own words: the user "mentor" in "Call a
 * mentor"). Code (a path, a format's example) is written left to right on purpose.
 */
async function textsWithoutOwnDirection(page: Page, written: readonly string[]): Promise<string[]> {
  return page.evaluate((written) => {
    const arabicPage = document.documentElement.lang === "ar";
    const foreign = arabicPage ? /[A-Za-z]{3}/ : /[\u0600-\u06FF]{3}/;
    const pieces = written.filter((text) => text.length >= 12 || foreign.test(text));
    const SKIP = "script, style, noscript, template, textarea, select, option, [hidden], code, kbd, samp, pre";
    const isolated = (raw: string, piece: string) => {
      // Every occurrence of the piece sits between an isolate's start (U+2066–U+2068) and its end (U+2069).
      let from = raw.indexOf(piece);
      if (from < 0) return false;
      while (from >= 0) {
        const before = raw.slice(0, from).replace(/\s+$/, "");
        const after = raw.slice(from + piece.length).replace(/^\s+/, "");
        if (!/[\u2066-\u2068]$/.test(before) || !after.startsWith("\u2069")) return false;
        from = raw.indexOf(piece, from + 1);
      }
      return true;
    };
    // The piece as whole words of the text (a user "admin" is not in "administrators").
    const edge = /[\p{L}\p{N}]/u;
    const wordAt = (text: string, piece: string) => {
      for (let at = text.indexOf(piece); at >= 0; at = text.indexOf(piece, at + 1)) {
        const startsClean = !edge.test(piece[0]) || !edge.test(text[at - 1] ?? "");
        const endsClean = !edge.test(piece.at(-1)!) || !edge.test(text[at + piece.length] ?? "");
        if (startsClean && endsClean) return true;
      }
      return false;
    };
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      const raw = node.textContent ?? "";
      const text = raw.replace(/[\u2066-\u2069\u200e\u200f]/g, "").replace(/\s+/g, " ").trim();
      if (!element || !text || element.closest(SKIP) || !element.checkVisibility({ checkVisibilityCSS: true })) continue;
      const matched = pieces.filter((piece) => wordAt(text, piece) || (text.length >= 20 && piece.includes(text)));
      // A name inside a longer one shown whole ("judge" in "Alder judge 17…") is that one's part, not a text of its own.
      const shown = matched.filter((piece) => !matched.some((other) => other !== piece && other.includes(piece)));
      if (shown.length === 0) continue;
      const owner = element.closest("bdi, [dir]");
      if (owner && (owner.localName === "bdi" || owner.getAttribute("dir") === "auto")) continue;
      const normalised = raw.replace(/\s+/g, " ");
      if (shown.every((piece) => isolated(normalised, piece))) continue;
      found.push(`${element.localName}.${[...element.classList].join(".")}: ${text.slice(0, 80)}`);
    }
    return [...new Set(found)];
  }, written);
}

const LATIN_RUN = /[A-Za-z]{3,}/;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const ALLOWED_WORDS = new RegExp(`\\b(?:${ALLOWED.map(escapeRegExp).join("|")})\\b`, "g");

/** The texts with English left in them, once the event's content and ALLOWED are taken out. */
function englishIn(texts: readonly string[], content: readonly string[]): string[] {
  const exact = new Set(content);
  // Longest first, so a name is taken out whole before a shorter name inside it.
  const names = [...content].filter((text) => text.length <= 200).sort((a, b) => b.length - a.length);
  const left: string[] = [];
  for (const raw of texts) {
    // Directional isolates and marks around names are not text.
    const text = raw.replace(/[\u2066-\u2069\u200e\u200f]/g, "").replace(/\s+/g, " ").trim();
    if (!LATIN_RUN.test(text) || exact.has(text)) continue;
    // A part of a long text someone wrote (a challenge's description in paragraphs).
    if (text.length >= 20 && content.some((written) => written.includes(text))) continue;
    let rest = text;
    for (const name of names) if (rest.includes(name)) rest = rest.split(name).join(" ");
    rest = rest.replace(ALLOWED_WORDS, " ");
    if (LATIN_RUN.test(rest)) left.push(text);
  }
  return [...new Set(left)];
}

test.describe("Arabic screens: no English left (and axe in both languages)", () => {
  test.afterAll(async () => {
    await sql.end({ timeout: 5 });
  });

  for (const [group, screens] of Object.entries(SCREENS)) {
    for (const screen of screens) {
      test(`${group}: ${screen.name}`, async ({ browser }) => {
        // Steps: the fixture, then in each language a page load, the hydration, axe and the direction check over
        // every text, and in Arabic the English search (the dashboard's long tables, audit and users, take the
        // most: 21 s on a loaded machine where a form page takes 3 s).
        budgetSteps(15);
        // Full-page screenshots at two widths of a long page take their time.
        if (SHOTS) test.slow();
        const f = await setUp();
        const who = { nobody: null, participant: f.team.member, admin: logins.admin, judge: f.judging.judge }[screen.who];
        const page = await arabicPage(browser, who);
        const response = await page.goto(screen.path(f));
        expect(response?.status(), `${screen.path(f)} answers`).toBeLessThan(screen.name.includes("not-found") || screen.name === "dashboard-404" ? 500 : 400);
        await expectArabic(page);
        // Hydrated: what the browser renders (countdowns, relative times) is on the screen too.
        await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
        const english = englishIn(await visibleTexts(page), await contentOf());
        expect.soft(english, `English on ${screen.path(f)}`).toEqual([]);
        const written = await writtenTexts();
        expect.soft(await textsWithoutOwnDirection(page, written), `written texts without a direction of their own on ${screen.path(f)} (Arabic)`).toEqual([]);
        expect.soft(await accessibilityViolations(page), `axe on ${screen.path(f)}`).toEqual([]);
        await shoot(page, `screen-${screen.name}`);
        // The same screen in English passes axe too.
        await page.context().addCookies([{ name: "lang", value: "en", url: test.info().project.use.baseURL! }]);
        await page.goto(screen.path(f));
        await expect(page.locator("html")).toHaveAttribute("lang", "en");
        await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
        expect.soft(await accessibilityViolations(page), `axe in English on ${screen.path(f)}`).toEqual([]);
        expect.soft(await textsWithoutOwnDirection(page, written), `written texts without a direction of their own on ${screen.path(f)} (English)`).toEqual([]);
        await page.context().close();
      });
    }
  }
});
