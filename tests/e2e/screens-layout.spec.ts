/**
 * Every screen holds at every width and in both directions (docs/screens.md). Each screen of
 * support/screens.ts is loaded once a language (English, Arabic) and laid out at 1366, 820 and 390 px; at each
 * width it fails on:
 * - a page wider than the window (a horizontal scroll of the page itself; a table's own box may scroll);
 * - a text overflowing its box (an element whose text runs past its own edge, its overflow visible);
 * - a control hidden under another (elementFromPoint at its centre is neither it nor inside it), for the
 *   controls in the first screen;
 * - an ordinary word broken inside: a text element set to break words anywhere (word-break: break-all,
 *   overflow-wrap: anywhere), or a word whose rendered width fits its box drawn over two lines. Code,
 *   and tokens longer than their box (an address, a file name), may break or be cut (`.cut`, its value in a title).
 * A screenshot of each screen's first screen at each width is attached to the test (its report keeps them).
 * Axe runs in arabic-screens.spec.ts and participant-screens.spec.ts on the same screens.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { freshChallengeToJudge } from "./support/judging.ts";
import { logins } from "./support/login.ts";
import { SCREENS, type ScreenFixture, type Who } from "./support/screens.ts";
import { freshTeam, openedChallenge } from "./support/teams.ts";

const WIDTHS = [
  { width: 1366, height: 768 },
  { width: 820, height: 1180 },
  { width: 390, height: 844 },
] as const;
const LANGUAGES = ["en", "ar"] as const;

let sql: postgres.Sql;
test.beforeAll(() => {
  sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
});
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
  for (const context of contexts.values()) await context.close().catch(() => undefined);
  contexts.clear();
});

// Each test walks one screen in two languages at three widths: 6 layouts measured and shot, 2 page loads. On the
// shared 2-core machine a long dashboard page took over 60 s for that (tests/e2e/README.md: a heavy file sets its own).
test.describe.configure({ mode: "parallel", timeout: 150_000 });

/** Made once a worker: a team of its own that answered and asked, and a challenge of its own to judge. */
let fixture: Promise<{ screen: ScreenFixture; member: { name: string; password: string } }> | undefined;
function setUp() {
  fixture ??= (async () => {
    const team = await freshTeam(sql, "Layout");
    const challenge = await openedChallenge(sql);
    const [member] = await sql<Array<{ id: number }>>`select id from users where name = ${team.member.name}`;
    await sql`insert into submissions (team_id, challenge_id, user_id, text) values (${team.id}, ${challenge.id}, ${member.id}, 'Our answer, with a long address: https://example.com/a/very/long/path/that/does/not/fit/anywhere/on/a/phone/screen/at/all')`;
    const [thread] = await sql<Array<{ id: number }>>`
      insert into requests (kind, message, user_id, team_id, challenge_id) values ('question', 'Is a PDF fine for the answer?', ${member.id}, ${team.id}, ${challenge.id}) returning id`;
    const judging = await freshChallengeToJudge(sql, 2);
    return { screen: { challengeId: challenge.id, threadId: thread.id, judgeChallengeId: judging.challengeId }, member: team.member };
  })();
  return fixture;
}

/** One signed-in context a role and language, for the worker's whole run. */
const contexts = new Map<string, BrowserContext>();
async function pageFor(browser: Browser, who: Who, language: (typeof LANGUAGES)[number], member: { name: string; password: string }): Promise<Page> {
  const key = `${who}-${language}`;
  let context = contexts.get(key);
  if (!context) {
    const baseURL = test.info().project.use.baseURL!;
    context = await browser.newContext({ reducedMotion: "reduce", baseURL, viewport: WIDTHS[0] });
    await context.addCookies([{ name: "lang", value: language, url: baseURL }]);
    if (who !== "nobody") {
      const account = who === "participant" ? member : logins[who];
      const response = await context.request.post("/login", { form: { username: account.name, password: account.password }, headers: { Origin: new URL(baseURL).origin }, maxRedirects: 0 });
      expect(response.status(), `login as ${account.name}`).toBe(302);
    }
    contexts.set(key, context);
  }
  for (const old of context.pages()) await old.close();
  return context.newPage();
}

/** What is wrong with the layout as it stands: one line a fault. */
function faultsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const faults: string[] = [];
    const root = document.documentElement;
    const describe = (element: Element) => {
      const text = (element.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 40);
      const id = element.id ? `#${element.id}` : "";
      const classes = typeof element.className === "string" && element.className ? `.${element.className.trim().split(/\s+/).join(".")}` : "";
      return `<${element.tagName.toLowerCase()}${id}${classes}> "${text}"`;
    };
    if (root.scrollWidth > window.innerWidth + 1) {
      // The deepest element reaching furthest past the window's edge: what makes the page scroll.
      let widest: Element | null = null;
      let reach = window.innerWidth + 1;
      for (const element of document.body.querySelectorAll("*")) {
        const right = element.getBoundingClientRect().right + window.scrollX;
        if (right >= reach) {
          reach = right;
          widest = element;
        }
      }
      faults.push(`page scrolls sideways: ${root.scrollWidth} px in ${window.innerWidth}${widest ? `, by ${describe(widest)}` : ""}`);
    }

    // Tokens, not words: code, a cut value, a submitted answer (often one bare URL, allowed to break anywhere) and a
    // value an audit record keeps (JSON, an address).
    const TOKEN = "code, pre, kbd, samp, .cut, .submission-text, [data-recorded], input, textarea, select, option, script, style, noscript, template, svg";
    const shown = (element: Element) => element.checkVisibility({ checkVisibilityCSS: true, opacityProperty: true });
    // Elements that hold text of their own.
    const texts = new Set<Element>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (element && node.textContent?.trim() && !element.closest(TOKEN) && shown(element)) texts.add(element);
    }
    // Inside a box that scrolls or clips sideways (a table's box), what lies beyond its edge is reachable by scrolling it.
    const clipper = (element: Element) => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        const overflow = getComputedStyle(up).overflowX;
        if (overflow !== "visible") return up;
      }
      return null;
    };
    let brokenStyle = 0;
    for (const element of texts) {
      const style = getComputedStyle(element);
      if ((style.wordBreak === "break-all" || style.overflowWrap === "anywhere") && brokenStyle++ < 5) faults.push(`breaks words anywhere (${style.wordBreak}, ${style.overflowWrap}): ${describe(element)}`);
      // A block's own text past its edge (an inline's box is its text: its block is checked).
      if (style.display !== "inline" && style.overflowX === "visible" && element.scrollWidth > element.clientWidth + 2 && element.clientWidth > 0) {
        faults.push(`text overflows its box (${element.scrollWidth} px in ${element.clientWidth}): ${describe(element)}`);
      }
    }

    // Words drawn over two lines though they fit their box.
    const range = document.createRange();
    let words = 0;
    const rooms = new Map<Element, number>();
    for (const element of texts) {
      if (words > 1500) break;
      let block: Element | null = element;
      while (block && getComputedStyle(block).display === "inline") block = block.parentElement;
      if (!block) continue;
      let room = rooms.get(block);
      if (room === undefined) {
        const blockStyle = getComputedStyle(block);
        room = block.clientWidth - parseFloat(blockStyle.paddingLeft) - parseFloat(blockStyle.paddingRight);
        rooms.set(block, room);
      }
      // Out of sight (below the first screens): its lines were measured at the same widths higher up.
      if (element.getBoundingClientRect().top > window.innerHeight * 3) continue;
      for (const node of element.childNodes) {
        if (node.nodeType !== Node.TEXT_NODE || !node.textContent) continue;
        // A run without a space that fits its line yet is drawn over two is a fault when a line ends between two
        // letters or figures (a word cut); a hyphenated word ("set-password") or markup someone typed may break
        // after its punctuation, as lines do. A run longer than its line (an address, a long name) may break anywhere.
        const text = node.textContent;
        for (const match of text.matchAll(/\S{4,}/g)) {
          if (++words > 1500) break;
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
          const lines = new Set(rects.map((rect) => Math.round(rect.top)));
          if (lines.size < 2) continue;
          const width = rects.reduce((sum, rect) => sum + rect.width, 0);
          if (width > room) continue;
          // Where its first line ends: the first character drawn on another line.
          range.setStart(node, match.index);
          range.setEnd(node, match.index + 1);
          const firstTop = Math.round(range.getBoundingClientRect().top);
          let cut = -1;
          for (let at = match.index + 1; at < match.index + match[0].length; at++) {
            range.setStart(node, at);
            range.setEnd(node, at + 1);
            const box = range.getBoundingClientRect();
            if (box.width > 0 && Math.round(box.top) !== firstTop) {
              cut = at;
              break;
            }
          }
          if (cut < 0 || !/[\p{L}\p{M}\p{N}]/u.test(text[cut - 1]) || !/[\p{L}\p{M}\p{N}]/u.test(text[cut])) continue;
          faults.push(`"${match[0]}" broken over ${lines.size} lines though it fits (${Math.round(width)} px in ${Math.round(room)}): ${describe(element)}`);
        }
      }
    }

    // Controls in view: the one at the centre of each is itself (or inside it).
    const controls = document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary");
    for (const control of controls) {
      if (!shown(control)) continue;
      // A link wrapped over lines: the middle of its whole box may fall between its lines, on its parent; the middle
      // of its first line is the link's.
      const box = control.getClientRects()[0] ?? control.getBoundingClientRect();
      if (box.width < 4 || box.height < 4) continue;
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) continue;
      const clip = clipper(control);
      if (clip) {
        const edge = clip.getBoundingClientRect();
        if (x < edge.left || x > edge.right || y < edge.top || y > edge.bottom) continue;
      }
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit === control || control.contains(hit)) continue;
      // A label over its own control (a styled checkbox) is the control's.
      const label = hit.closest("label");
      if (label && (label.control === control || label.contains(control))) continue;
      faults.push(`control under ${describe(hit)}: ${describe(control)}`);
    }
    return faults;
  });
}

const nextFrame = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

for (const screen of SCREENS) {
  test(`${screen.name} holds at 1366, 820 and 390 px in English and Arabic`, async ({ browser }) => {
    const { screen: ids, member } = await setUp();
    const found: string[] = [];
    for (const language of LANGUAGES) {
      const page = await pageFor(browser, screen.who, language, member);
      const response = await page.goto(screen.path(ids));
      expect(response?.status(), `${screen.name} opens`).toBeLessThan(500);
      await expect(page.locator("html")).toHaveAttribute("lang", language);
      // Hydrated: what JavaScript measures (a table's side cue) is drawn.
      await page.waitForLoadState("load");
      for (const viewport of WIDTHS) {
        await page.setViewportSize(viewport);
        await page.evaluate(() => window.scrollTo(0, 0));
        await nextFrame(page);
        const at = `${language} ${viewport.width} px`;
        for (const fault of await faultsOf(page)) found.push(`${at} top: ${fault}`);
        const shot = test.info().outputPath(`${screen.name}-${language}-${viewport.width}.jpeg`);
        await page.screenshot({ path: shot, type: "jpeg", quality: 60 });
        await test.info().attach(`${screen.name}-${language}-${viewport.width}`, { path: shot, contentType: "image/jpeg" });
      }
      await page.close();
    }
    expect([...new Set(found)]).toEqual([]);
  });
}
