/**
 * The authorisation matrix (issue 8): every route of the Remix route manifest × every role, for GET
 * (the loader) and for a POST (the action), against one table of expected outcomes. A route without a
 * row fails the build, so a new route cannot be missed. Each module is called the way Remix calls it,
 * with a real session cookie, on a real database: its own guard must hold (a parent layout's guard is
 * never relied on).
 */
import path from "node:path";
import { Readable } from "node:stream";
import { readConfig } from "@remix-run/dev/dist/config.js";
import { beforeAll, describe, expect, it } from "vitest";
import { challenges, gates, submissions } from "../../db/schema.ts";
import { getDb } from "../../app/utils/db.server.ts";
import { newObjectKey, uploadStream } from "../../app/utils/s3.server.ts";
import { makeChallenge, makeTeam, makeUser, sessionCookie } from "../support/fixtures.ts";
import { eq } from "drizzle-orm";

const roles = ["visitor", "participant", "outsider", "judge", "admin"] as const;
type Role = (typeof roles)[number];
/** allowed: answered (200, a redirect elsewhere, a 4xx about the input); login: sent to /login; 403; 404. */
type Outcome = "allowed" | "login" | "403" | "404";
type Row = Record<Role, Outcome>;

const everyone: Row = { visitor: "allowed", participant: "allowed", outsider: "allowed", judge: "allowed", admin: "allowed" };
const signedIn: Row = { visitor: "login", participant: "allowed", outsider: "allowed", judge: "allowed", admin: "allowed" };
const staff: Row = { visitor: "login", participant: "403", outsider: "403", judge: "allowed", admin: "allowed" };
const adminOnly: Row = { visitor: "login", participant: "403", outsider: "403", judge: "403", admin: "allowed" };
const ownTeamOrStaff: Row = { visitor: "login", participant: "allowed", outsider: "404", judge: "allowed", admin: "allowed" };
const nobody: Row = { visitor: "404", participant: "404", outsider: "404", judge: "404", admin: "404" };
/** Submitting needs a team: staff have none (DOMAIN.md), so they are refused. */
const submitter: Row = { visitor: "login", participant: "allowed", outsider: "allowed", judge: "403", admin: "403" };

/** What the fixtures give each case: ids of rows made in beforeAll. */
interface World {
  openChallenge: number;
  closedChallenge: number;
  submissionWithFile: number;
}

interface Case {
  name?: string;
  params?: (world: World) => Record<string, string>;
  loader?: Row;
  action?: Row;
}

/**
 * The table. "participant" is a member of the team that owns the submission; "outsider" a participant of
 * another team. Participant screens admit every signed-in role (DOMAIN.md); /dashboard only staff, and
 * everything but Submissions (and its 404s) only admins.
 */
const matrix: Record<string, Case[]> = {
  root: [{ loader: everyone }],
  "routes/_index": [{}],
  "routes/login": [{ loader: everyone, action: everyone }],
  "routes/logout": [{ loader: everyone, action: everyone }],
  "routes/register": [{ loader: everyone, action: everyone }],
  // The not-found page answers 404 to everyone, by design.
  "routes/404": [{ loader: nobody }],
  "routes/$": [{ params: () => ({ "*": "nowhere" }), loader: everyone, action: everyone }],
  "routes/_app": [{ loader: signedIn }],
  "routes/_app.welcome": [{ loader: signedIn, action: signedIn }],
  "routes/_app.home": [{ loader: signedIn, action: signedIn }],
  "routes/_app.notification": [{ loader: signedIn }],
  "routes/_app.preloader": [{ loader: signedIn }],
  "routes/_app.gates": [{ loader: signedIn }],
  "routes/_app.gate.$wave": [
    { name: "an open gate", params: () => ({ wave: "1" }), loader: signedIn },
    // A closed gate shows its countdown (no challenges) to everyone signed in.
    { name: "a closed gate", params: () => ({ wave: "5" }), loader: signedIn },
    { name: "no such gate", params: () => ({ wave: "9" }), loader: { ...nobody, visitor: "login" } },
  ],
  "routes/_app.submition.$id": [
    { name: "an open challenge", params: (w) => ({ id: String(w.openChallenge) }), loader: signedIn, action: submitter },
    {
      name: "a challenge of a closed gate",
      params: (w) => ({ id: String(w.closedChallenge) }),
      // Participants cannot see it yet; staff can read it. Nobody can submit to it.
      loader: { visitor: "login", participant: "404", outsider: "404", judge: "allowed", admin: "allowed" },
      action: { visitor: "login", participant: "403", outsider: "403", judge: "403", admin: "403" },
    },
  ],
  "routes/_app.status": [{ loader: signedIn }],
  "routes/_app.scoreboard": [{ loader: signedIn }],
  "routes/_app.announcement": [{ loader: signedIn, action: signedIn }],
  "routes/_app.timer": [{ loader: signedIn }],
  "routes/challenge.$id.attachment": [
    { name: "an open challenge", params: (w) => ({ id: String(w.openChallenge) }), loader: signedIn },
    {
      name: "a challenge of a closed gate",
      params: (w) => ({ id: String(w.closedChallenge) }),
      loader: { visitor: "login", participant: "404", outsider: "404", judge: "allowed", admin: "allowed" },
    },
  ],
  "routes/submissions.$id.file": [{ params: (w) => ({ id: String(w.submissionWithFile) }), loader: ownTeamOrStaff }],
  "routes/submition.$id.upload": [{ params: (w) => ({ id: String(w.openChallenge) }), loader: nobody, action: submitter }],
  "routes/dashboard": [{ loader: staff }],
  "routes/dashboard._index": [{ loader: adminOnly, action: adminOnly }],
  "routes/dashboard.$": [{ params: () => ({ "*": "nowhere" }), loader: staff }],
  // The dashboard's own not-found page: 404 to staff, the usual refusal to everyone else.
  "routes/dashboard.404": [{ loader: { ...staff, judge: "404", admin: "404" } }],
  "routes/dashboard.submissions": [{ loader: staff, action: staff }],
  "routes/dashboard.teams": [{ loader: adminOnly, action: adminOnly }],
  "routes/dashboard.users": [{ loader: adminOnly, action: adminOnly }],
  "routes/dashboard.usersrank": [{ loader: adminOnly }],
  "routes/dashboard.mentors": [{ loader: adminOnly }],
  "routes/dashboard.needs": [{ loader: adminOnly }],
  "routes/dashboard.allchallenges": [{ loader: adminOnly, action: adminOnly }],
  "routes/dashboard.challenges": [{ loader: adminOnly, action: adminOnly }],
  "routes/dashboard.getAllChallenges": [{ loader: adminOnly, action: adminOnly }],
  "routes/dashboard.challenges_.$id.attachment": [{ params: (w) => ({ id: String(w.openChallenge) }), loader: adminOnly }],
  "routes/dashboard.notifications": [{ loader: adminOnly, action: adminOnly }],
  "routes/dashboard.settings": [{ loader: adminOnly, action: adminOnly }],
  "routes/dashboard.registrations": [{ loader: adminOnly, action: adminOnly }],
  "routes/dashboard.registrations.export": [{ loader: adminOnly }],
  "routes/dashboard.exports.standings[.csv]": [{ loader: adminOnly }],
  "routes/dashboard.exports.users-rank[.csv]": [{ loader: adminOnly }],
};

type RouteModule = {
  loader?: (args: { request: Request; params: Record<string, string>; context: object }) => Promise<unknown>;
  action?: (args: { request: Request; params: Record<string, string>; context: object }) => Promise<unknown>;
};

const appDirectory = path.resolve(import.meta.dirname, "../../app");
const config = await readConfig(path.resolve(import.meta.dirname, "../.."));
const manifest = Object.values(config.routes);

function fullPath(id: string): string {
  const parts: string[] = [];
  for (let route = config.routes[id]; route; route = route.parentId ? config.routes[route.parentId] : undefined!) {
    if (route.path) parts.unshift(route.path);
  }
  return `/${parts.join("/")}`;
}

/** The status (and redirect target) of whatever a loader or action returned or threw. */
function answerOf(result: unknown): { status: number; location: string | null } {
  if (result instanceof Response) return { status: result.status, location: result.headers.get("Location") };
  const init = (result as { type?: string; init?: ResponseInit | null } | null)?.type === "DataWithResponseInit" ? (result as { init?: ResponseInit | null }).init : null;
  if (init) return { status: init.status ?? 200, location: new Headers(init.headers).get("Location") };
  return { status: 200, location: null };
}

function classify(answer: { status: number; location: string | null }): Outcome | `error ${number}` {
  if ((answer.status === 302 || answer.status === 303) && answer.location?.startsWith("/login?redirectTo=")) return "login";
  if (answer.status === 403) return "403";
  if (answer.status === 404) return "404";
  if (answer.status >= 500) return `error ${answer.status}`;
  return "allowed";
}

let world: World;
const cookies: Partial<Record<Role, string>> = {};

beforeAll(async () => {
  const now = Date.now();
  await getDb()
    .insert(gates)
    .values([1, 2, 3, 4, 5].map((number) => ({ number, title: `Gate ${number}`, description: "d", opensAt: new Date(number <= 2 ? now - 3_600_000 : now + 3_600_000) })));
  const [teamA, teamB] = [await makeTeam(), await makeTeam()];
  const users = {
    participant: await makeUser("participant", teamA.id),
    outsider: await makeUser("participant", teamB.id),
    judge: await makeUser("judge"),
    admin: await makeUser("admin"),
  };
  for (const [role, user] of Object.entries(users)) cookies[role as Role] = await sessionCookie(user.id);

  const stored = async (prefix: "attachments" | "submissions", body: string) => {
    const key = newObjectKey(prefix);
    await uploadStream({ key, body: Readable.from([Buffer.from(body)]), limitBytes: 1000 });
    return key;
  };
  const open = await makeChallenge({ wave: 1 });
  await getDb().update(challenges).set({ attachmentKey: await stored("attachments", "%PDF-1.1"), attachmentName: "brief.pdf" }).where(eq(challenges.id, open.id));
  const closed = await makeChallenge({ wave: 5 });
  await getDb().update(challenges).set({ attachmentKey: await stored("attachments", "%PDF-1.1"), attachmentName: "later.pdf" }).where(eq(challenges.id, closed.id));
  const [submission] = await getDb()
    .insert(submissions)
    .values({ teamId: teamA.id, challengeId: open.id, userId: users.participant.id, text: "ours", fileKey: await stored("submissions", "secret"), fileName: "ours.txt" })
    .returning();
  world = { openChallenge: open.id, closedChallenge: closed.id, submissionWithFile: submission.id };
});

async function call(module: RouteModule, kind: "loader" | "action", role: Role, url: string, params: Record<string, string>) {
  const headers = new Headers(cookies[role] ? { Cookie: cookies[role]! } : {});
  const init: RequestInit = kind === "loader" ? { headers } : { method: "POST", headers: { ...Object.fromEntries(headers), "Content-Type": "application/x-www-form-urlencoded" }, body: "" };
  try {
    return classify(answerOf(await module[kind]!({ request: new Request(`http://localhost${url}`, init), params, context: {} })));
  } catch (thrown) {
    return classify(answerOf(thrown));
  }
}

describe("authorisation matrix", () => {
  it("has a row for every route of the manifest, and no row for a route that is gone", async () => {
    const missing: string[] = [];
    for (const route of manifest) {
      const module = (await import(path.join(appDirectory, route.file))) as RouteModule;
      const cases = matrix[route.id];
      if (!cases) {
        if (module.loader || module.action) missing.push(route.id);
        continue;
      }
      for (const testCase of cases) {
        // A row must say what happens to each function the module exports, and nothing it does not.
        expect(Boolean(testCase.loader), `${route.id}: loader row`).toBe(Boolean(module.loader));
        expect(Boolean(testCase.action), `${route.id}: action row`).toBe(Boolean(module.action));
      }
    }
    expect(missing, "routes with a loader or action but no row in the matrix").toEqual([]);
    expect(Object.keys(matrix).filter((id) => !config.routes[id])).toEqual([]);
  });

  for (const route of manifest) {
    for (const testCase of matrix[route.id] ?? []) {
      for (const kind of ["loader", "action"] as const) {
        const expected = testCase[kind];
        if (!expected) continue;
        it(`${kind === "loader" ? "GET" : "POST"} ${route.id}${testCase.name ? ` (${testCase.name})` : ""}`, async () => {
          const module = (await import(path.join(appDirectory, route.file))) as RouteModule;
          const params = testCase.params?.(world) ?? {};
          const url = fullPath(route.id).replace(/:(\w+)/g, (_, name: string) => params[name] ?? name).replace("*", params["*"] ?? "");
          const actual: Record<string, string> = {};
          for (const role of roles) actual[role] = await call(module, kind, role, url + (route.index ? "?index" : ""), params);
          expect(actual).toEqual(expected);
        });
      }
    }
  }
});
