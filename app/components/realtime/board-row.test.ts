/**
 * A board's rows from the server's markup cache (app/hooks/markup-cache.ts) are the markup React renders
 * without it, byte for byte (the browser hydrates against them), in both languages; the viewer's own row
 * never comes from it, nor goes into it; a change of name, points or rank is on the next render; and the
 * page's render around the cached rows keeps its context (its language).
 */
import { createElement as h, useContext, type ReactElement } from "react";
import { Writable } from "node:stream";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { I18nContext } from "react-i18next";
import { describe, expect, it } from "vitest";
import { MarkupCacheProvider } from "~/hooks/markup-cache";
import { createMarkupCache } from "~/hooks/markup-cache.server";
import type { TeamStanding } from "~/modules/realtime/events";
import { BoardRow, marksByTeam, type RowMark } from "./board-row";

const team = (id: number, rank: number, name = `Team ${id}`, totalScore = 1000 - rank * 7.25): TeamStanding => ({
  id,
  name,
  totalScore,
  categories: { AI: totalScore / 4, CS: 0, PS: 12.5, GD: totalScore - totalScore / 4 - 12.5 },
  solvedCount: rank % 9,
  rank,
  reachedAt: "2026-11-28T08:00:00.000Z",
  version: 1,
  division: null,
});

/** Ranks 0 (no points yet) to 60, medals included, with names a hostile player would pick. */
const board: TeamStanding[] = [
  ...Array.from({ length: 60 }, (_, at) => team(at + 1, at + 1)),
  team(61, 0, "<script>alert(1)</script> & \"quoted\" | piped", 0),
  team(62, 61, "فريق ‏النجوم‏ | 7"),
];

/** What the language's own span reads inside the page's render, after the rows. */
function LanguageProbe() {
  return h("span", { id: "probe" }, useContext(I18nContext)?.i18n?.language ?? "none");
}

function tree(
  language: "en" | "ar",
  ownTeamId: number | null,
  cache: ReturnType<typeof createMarkupCache> | null,
  teams = board,
  marks: ReadonlyMap<number, RowMark[]> = new Map(),
): ReactElement {
  const rows = h(
    "table",
    null,
    h(
      "tbody",
      null,
      teams.map((entry) => h(BoardRow, { key: entry.id, team: entry, own: entry.id === ownTeamId, flashing: false, marks: marks.get(entry.id) })),
    ),
    h("caption", null, h(LanguageProbe)),
  );
  const withLanguage = h(I18nContext.Provider, { value: { i18n: { language } } as never }, rows);
  return cache ? h(MarkupCacheProvider, { value: cache }, withLanguage) : withLanguage;
}

/** As the server renders a page (app/entry.server.tsx): React's streaming renderer, the cache's renders inside it. */
const page = (...args: Parameters<typeof tree>) => streamed(tree(...args));

function streamed(element: ReactElement): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        parts.push(chunk);
        done();
      },
    });
    sink.on("finish", () => resolve(Buffer.concat(parts).toString("utf8")));
    const { pipe } = renderToPipeableStream(element, { onAllReady: () => pipe(sink), onError: reject });
  });
}

describe("board rows from the server's markup cache", () => {
  for (const language of ["en", "ar"] as const) {
    it(`are what React renders without the cache, first and from the cache (${language})`, async () => {
      const cache = createMarkupCache(1000);
      const plain = await page(language, 5, null);
      expect(await page(language, 5, cache)).toBe(plain);
      // 62 teams: 3 medal rows and the own row are rendered as usual, the rest is kept.
      expect(cache.size).toBe(58);
      expect(await page(language, 5, cache)).toBe(plain);
      expect(cache.size).toBe(58);
      // The page's render keeps its own context (its language) around the cached rows.
      expect(plain).toContain(`<span id="probe">${language}</span>`);
      expect(plain).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot; | piped");
      // renderToString (the other renderer) makes the same page.
      expect(renderToString(tree(language, 5, createMarkupCache(1000)))).toBe(renderToString(tree(language, 5, null)));
    });
  }

  it("keeps one language's numbers from the other's pages, through one cache", async () => {
    const cache = createMarkupCache(1000);
    // 1,234.5 in English is 1.234,5 in Arabic (ar-DZ); whole numbers under 1,000 read alike.
    const teams = [...board, team(70, 62, "Team 70", 1234.5)];
    expect(await page("en", null, cache, teams)).toBe(await page("en", null, null, teams));
    const arabic = await page("ar", null, cache, teams);
    expect(arabic).toBe(await page("ar", null, null, teams));
    expect(arabic).toContain("1.234,5");
    expect(arabic).not.toContain("1,234.5");
  });

  it("never serves one viewer's own row to another", async () => {
    const cache = createMarkupCache(1000);
    const mine = await page("en", 20, cache);
    const theirs = await page("en", 30, cache);
    const rowOf = (html: string, name: string) => html.slice(html.lastIndexOf("<tr", html.indexOf(`>${name}</bdi>`)), html.indexOf("</tr>", html.indexOf(`>${name}</bdi>`)));
    expect(rowOf(mine, "Team 20")).toContain("(your team)");
    expect(rowOf(mine, "Team 20")).toContain("scoreboard__row--own");
    expect(rowOf(theirs, "Team 20")).not.toContain("(your team)");
    expect(rowOf(theirs, "Team 20")).not.toContain("scoreboard__row--own");
    expect(rowOf(theirs, "Team 30")).toContain("(your team)");
    expect(theirs.match(/\(your team\)/g)).toHaveLength(1);
    expect(await page("en", null, cache)).not.toContain("(your team)");
    expect(theirs).toBe(await page("en", 30, null));
  });

  it("shows a new name, rank, points, total or solved count on the next render", async () => {
    const cache = createMarkupCache(1000);
    await page("en", null, cache);
    // One change each: a name, a rank, the points, the points moved between categories with the same
    // total, the total alone (an award), the solved count.
    const changed = board.map((entry) => {
      if (entry.id === 40) return { ...entry, name: "Renamed" };
      if (entry.id === 41) return { ...entry, rank: 44 };
      if (entry.id === 42) return { ...team(42, 42, "Team 42", 1234.5), version: 2 };
      if (entry.id === 43) return { ...entry, totalScore: 4321.75, version: 2 };
      if (entry.id === 44) return { ...entry, categories: { ...entry.categories, AI: entry.categories.AI - 3.5, CS: 3.5 }, version: 2 };
      if (entry.id === 45) return { ...entry, solvedCount: 17, version: 2 };
      return entry;
    });
    const html = await page("en", null, cache, changed);
    expect(html).toBe(await page("en", null, null, changed));
    expect(html).toContain(">Renamed</bdi>");
    expect(html).not.toContain(">Team 40</bdi>");
    expect(html).toContain("1,234.5");
    expect(html).toContain("4,321.75");
    expect(html).toContain('<td class="num">17</td>');
  });
});

describe("the markup cache", () => {
  it("renders a key once, keeps two generations of pieces, and drops what nobody asked for", () => {
    const cache = createMarkupCache(2);
    let renders = 0;
    const piece = (text: string) => () => {
      renders++;
      return h("b", null, text);
    };
    expect(cache.markup("a", piece("A"))).toBe("<b>A</b>");
    expect(cache.markup("a", piece("other"))).toBe("<b>A</b>");
    expect(renders).toBe(1);
    cache.markup("b", piece("B"));
    // The young generation is full: "a" and "b" become the old one.
    cache.markup("c", piece("C"));
    // Asked for from the old generation: kept (moved to the young one).
    expect(cache.markup("a", piece("A"))).toBe("<b>A</b>");
    expect(renders).toBe(3);
    // "c" and "a" are old now, "b" is gone.
    cache.markup("d", piece("D"));
    expect(cache.size).toBe(3);
    cache.markup("b", piece("B"));
    expect(renders).toBe(5);
    expect(cache.size).toBeLessThanOrEqual(4);
  });

  it("lists a team's first-three solves in its row's details, and a new one on the next render", async () => {
    const cache = createMarkupCache(1000);
    const first = marksByTeam([
      { teamId: 12, place: 1, challenge: "Blood <Trail>" },
      { teamId: 12, place: 3, challenge: "Second Wind" },
      { teamId: 30, place: 2, challenge: "Blood <Trail>" },
    ]);
    const html = await page("en", null, cache, board, first);
    expect(html).toBe(await page("en", null, null, board, first));
    const rowOf = (text: string, name: string) => text.slice(text.lastIndexOf("<tr", text.indexOf(`>${name}</bdi>`)), text.indexOf("</tr>", text.indexOf(`>${name}</bdi>`)));
    expect(rowOf(html, "Team 12")).toContain("<details");
    expect(rowOf(html, "Team 12")).toContain("scoreboard__blood");
    expect(rowOf(html, "Team 12")).toContain("Blood &lt;Trail&gt;");
    expect(rowOf(html, "Team 12")).toContain("Second Wind");
    expect(rowOf(html, "Team 30")).not.toContain("scoreboard__blood");
    expect(rowOf(html, "Team 31")).not.toContain("<details");
    const next = marksByTeam([
      { teamId: 12, place: 1, challenge: "Blood <Trail>" },
      { teamId: 12, place: 3, challenge: "Second Wind" },
      { teamId: 31, place: 1, challenge: "New Dawn" },
    ]);
    const after = await page("en", null, cache, board, next);
    expect(after).toBe(await page("en", null, null, board, next));
    expect(rowOf(after, "Team 31")).toContain("New Dawn");
    expect(rowOf(after, "Team 30")).not.toContain("<details");
  });
});
