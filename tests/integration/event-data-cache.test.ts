/**
 * What every participant's pages read alike (gates, challenges, settings, announcements, meals) is
 * remembered by the web process per version of its tables (app/modules/event-data/): a change is on the
 * very next request, whoever made it and however (here: plain SQL, as an operator would), and what belongs
 * to one viewer or team (solved flags, unread counts) is never served to another.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { announcements, challenges, eventSettings, gates, submissions, users } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { gateRows } from "../../app/modules/gates/gates.server.ts";
import { viewerBadges } from "../../app/modules/participant/badges.server.ts";
import { login } from "../drills/support/http.ts";
import { FIXTURE_PASSWORD } from "../drills/support/event.ts";
import { ensureEventSettings, openAllGates, makeChallenge, makeTeam, makeUser } from "../support/fixtures.ts";
import { startWebServer, stopAll } from "../support/processes.ts";

let web: string;

beforeAll(async () => {
  await ensureEventSettings();
  await openAllGates();
  web = (await startWebServer()).url;
}, 90_000);

afterAll(async () => {
  stopAll();
  await closeEmitter();
});

async function page(path: string, cookie: string): Promise<string> {
  const response = await fetch(`${web}${path}`, { headers: { cookie }, redirect: "manual" });
  expect(response.status, path).toBe(200);
  return response.text();
}

describe("shared event data", () => {
  it("a read is kept while its table's version stands; a statement on the table moves it, and only it", async () => {
    const user = await makeUser("participant");
    const versions = async () => (await viewerBadges({ id: user.id, teamId: null })).versions!;
    const before = await versions();
    const first = await gateRows(before);
    expect(await gateRows(before)).toBe(first);
    await getDb().update(gates).set({ title: "Renamed in place" }).where(eq(gates.number, 2));
    const after = await versions();
    expect(after.gates).not.toBe(before.gates);
    expect({ ...after, gates: before.gates }).toEqual(before);
    const renamed = await gateRows(after);
    expect(renamed).not.toBe(first);
    expect(renamed.find((gate) => gate.number === 2)?.title).toBe("Renamed in place");
    // Without versions (workers, the API, scripts): always Postgres.
    expect(await gateRows(null)).not.toBe(await gateRows(null));
  });

  it("the web process shows a change on the next request: gates, a challenge, the settings, an announcement", async () => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const cookie = await login(web, user.name, FIXTURE_PASSWORD);
    const challenge = await makeChallenge({ wave: 4 });

    expect(await page("/gates", cookie)).toContain("Gate 4");
    expect(await page("/gate/4", cookie)).toContain(challenge.title);
    await page("/timer", cookie);
    await page("/announcement", cookie);

    await getDb().update(gates).set({ title: "The fourth door" }).where(eq(gates.number, 4));
    expect(await page("/gates", cookie)).toContain("The fourth door");

    await getDb().update(challenges).set({ status: "inactive" }).where(eq(challenges.id, challenge.id));
    expect(await page("/gate/4", cookie)).not.toContain(challenge.title);
    const added = await makeChallenge({ wave: 4 });
    expect(await page("/gate/4", cookie)).toContain(added.title);

    // A gate moved into the future is closed on the next request (its challenges no longer listed).
    await getDb().update(gates).set({ opensAt: new Date(Date.now() + 3_600_000) }).where(eq(gates.number, 4));
    expect(await page("/gate/4", cookie)).not.toContain(added.title);

    const finalAt = new Date(Date.UTC(2031, 0, 2, 3, 4, 5));
    await getDb().update(eventSettings).set({ finalAt }).where(eq(eventSettings.id, 1));
    expect(await page("/timer", cookie)).toContain(finalAt.toISOString());

    await getDb().insert(announcements).values({ title: "Lunch moved", content: "Hall C at noon", createdBy: user.id });
    expect(await page("/announcement", cookie)).toContain("Lunch moved");
  });

  it("each viewer reads the event's content in their language, whatever another's request left in the shared reads", async () => {
    const team = await makeTeam();
    const [englishUser, arabicUser] = [await makeUser("participant", team.id), await makeUser("participant", team.id)];
    const english = await login(web, englishUser.name, FIXTURE_PASSWORD);
    // The language the switch keeps (decision 025), beside the session.
    const arabic = `${await login(web, arabicUser.name, FIXTURE_PASSWORD)}; lang=ar`;
    const stamp = Date.now();
    await getDb().update(gates).set({ title: `Third door ${stamp}`, titleAr: `الباب الثالث ${stamp}`, description: "Walk in.", descriptionAr: "ادخل." }).where(eq(gates.number, 3));
    await getDb().update(gates).set({ title: `Second door ${stamp}`, titleAr: null }).where(eq(gates.number, 2));
    const challenge = await makeChallenge({ wave: 3 });
    await getDb().update(challenges).set({ titleAr: `تحدّي ${stamp}`, description: "Solve the riddle.", descriptionAr: "حلّ اللغز." }).where(eq(challenges.id, challenge.id));
    await getDb().insert(announcements).values([
      { title: `Lunch ${stamp}`, content: "Hall C at noon.", titleAr: `الغداء ${stamp}`, contentAr: "القاعة ج عند الظهر.", createdBy: englishUser.id },
      { title: `Answer ${stamp}`, content: "Yes, a PDF.", titleAr: `الجواب ${stamp}`, contentAr: "نعم، ملف PDF.", challengeId: challenge.id, createdBy: englishUser.id },
    ]);
    const pages = ["/gates", "/gate/3", `/submition/${challenge.id}`, "/announcement"];
    const arabicTexts = [`الباب الثالث ${stamp}`, `تحدّي ${stamp}`, "حلّ اللغز.", `الغداء ${stamp}`, "القاعة ج عند الظهر.", `الجواب ${stamp}`];
    const englishTexts = [`Third door ${stamp}`, challenge.title, "Solve the riddle.", `Lunch ${stamp}`, "Hall C at noon.", `Answer ${stamp}`];
    // Interleaved both ways, so whichever language a shared read or a cache kept would reach the other viewer.
    for (const order of [[english, arabic], [arabic, english], [english, arabic]]) {
      for (const path of pages) {
        for (const cookie of order) {
          const html = await page(path, cookie);
          const [own, other] = cookie === arabic ? [arabicTexts, englishTexts] : [englishTexts, arabicTexts];
          for (const text of other) expect(html, `${path} for the ${cookie === arabic ? "Arabic" : "English"} viewer`).not.toContain(text);
          if (path === "/gates") expect(html).toContain(own[0]);
          if (path === `/submition/${challenge.id}`) for (const text of [own[1], own[2], own[5]]) expect(html).toContain(text);
          if (path === "/announcement") for (const text of [own[3], own[4]]) expect(html).toContain(text);
        }
      }
    }
    // A gate given no Arabic: the Arabic viewer reads its English.
    expect(await page("/gates", arabic)).toContain(`Second door ${stamp}`);
  });

  it("never serves one team's solved flags or one user's unread count to another", async () => {
    const [solver, other] = [await makeTeam(), await makeTeam()];
    const [solverUser, otherUser] = [await makeUser("participant", solver.id), await makeUser("participant", other.id)];
    const [solverCookie, otherCookie] = [await login(web, solverUser.name, FIXTURE_PASSWORD), await login(web, otherUser.name, FIXTURE_PASSWORD)];
    const challenge = await makeChallenge({ wave: 5, points: 100 });
    await getDb().insert(submissions).values({ teamId: solver.id, challengeId: challenge.id, userId: solverUser.id, text: "a", status: "reviewed", scoreCenti: 10_000 });

    // Interleaved, so whichever answer a shared cache kept would show on the other's page.
    for (let round = 0; round < 2; round++) {
      expect(await page("/gate/5", solverCookie)).toContain("challenge-card--solved");
      expect(await page("/gate/5", otherCookie)).not.toContain("challenge-card--solved");
    }

    // The other user reads the announcements; the solver has not: their unread counts differ.
    await getDb().insert(announcements).values({ title: "Unread for now", content: "x", createdBy: solverUser.id });
    await page("/announcement", otherCookie);
    // The nav's badge reads "N unread" for screen readers; none when there is nothing unread.
    const unreadOf = async (cookie: string) => /(\d+) unread</.exec(await page("/timer", cookie))?.[1] ?? "0";
    expect(await unreadOf(otherCookie)).toBe("0");
    expect(Number(await unreadOf(solverCookie))).toBeGreaterThan(0);
    expect(await unreadOf(otherCookie)).toBe("0");
  });

  it("/announcement read again writes nothing; what it shows is seen, to the microsecond, and what it did not show stays unread", async () => {
    const user = await makeUser("participant");
    const cookie = await login(web, user.name, FIXTURE_PASSWORD);
    const seenAt = async () => (await getDb().select({ at: users.announcementsSeenAt }).from(users).where(eq(users.id, user.id)))[0].at;
    const unread = async () => /(\d+) unread</.exec(await page("/timer", cookie))?.[1] ?? "0";
    await getDb().insert(announcements).values({ title: "Doors at nine", content: "x", createdBy: user.id });
    await page("/announcement", cookie);
    const first = await seenAt();
    expect(first).not.toBeNull();
    expect(await unread()).toBe("0");
    await page("/announcement", cookie);
    expect(await seenAt()).toEqual(first);

    // Published in the same millisecond as the last visit, after it (Postgres keeps microseconds): unread, then seen.
    await getDb().execute(sql`insert into announcements (title, content, created_by, created_at)
      values ('Within the millisecond', 'x', ${user.id}, (select announcements_seen_at from users where id = ${user.id}) + interval '400 microseconds')`);
    expect(await unread()).toBe("1");
    expect(await page("/announcement", cookie)).toContain("Within the millisecond");
    expect(await unread()).toBe("0");

    // Committed after the page was read but dated before it ended (a long transaction, or a database clock
    // behind the web's): the page never showed it, so it stays unread.
    await getDb().execute(sql`insert into announcements (title, content, created_by, created_at)
      values ('Committed late', 'x', ${user.id}, (select max(created_at) from announcements) + interval '1 microsecond')`);
    expect(await unread()).toBe("1");
  });
});
