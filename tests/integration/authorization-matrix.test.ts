/**
 * The authorisation matrix: every route of the Remix route manifest × every role, for GET
 * (the loader) and for a POST (the action), against the expected outcomes: for most pages, what the
 * page-roles table (app/modules/auth/access.ts) declares for the route's URL, the same declaration the
 * guards apply; written here only where the outcome depends on data. A route without a
 * row fails the build, so a new route cannot be missed. Each module is called the way Remix calls it,
 * with a real session cookie, on a real database: its own guard must hold (a parent layout's guard is
 * never relied on).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { answerOf, callRoute, loadRouteModule, routeExists, routeManifest, routeUrl, type RouteModule } from "../support/route-manifest.ts";
import { createRouteWorld, worldRoles, type RouteWorld, type WorldRole } from "../support/route-world.ts";
import { rolesForPath, rolesUnder, type Role as AppRole } from "../../app/modules/auth/access.ts";

const roles = worldRoles;
type Role = WorldRole;
/** allowed: answered (200, a redirect elsewhere, a 4xx about the input); login: sent to /login; 403; 404. */
type Outcome = "allowed" | "login" | "403" | "404";
type Row = Record<Role, Outcome>;

const everyone: Row = { visitor: "allowed", participant: "allowed", outsider: "allowed", judge: "allowed", admin: "allowed", mentor: "allowed" };
const signedIn: Row = { visitor: "login", participant: "allowed", outsider: "allowed", judge: "allowed", admin: "allowed", mentor: "allowed" };
/** A team's files: its own members, judges and admins; a mentor reads no team's work. */
const ownTeamOrStaff: Row = { visitor: "login", participant: "allowed", outsider: "404", judge: "allowed", admin: "allowed", mentor: "404" };
const nobody: Row = { visitor: "404", participant: "404", outsider: "404", judge: "404", admin: "404", mentor: "404" };
/** Submitting needs a team: staff and mentors have none (docs/domain.md), so they are refused. */
const submitter: Row = { visitor: "login", participant: "allowed", outsider: "allowed", judge: "403", admin: "403", mentor: "403" };
const ownTeamOnly: Row = { visitor: "login", participant: "allowed", outsider: "404", judge: "404", admin: "404", mentor: "404" };
/** What only admins and judges read (a gate not yet open): participants and mentors are told it does not exist. */
const staffOnly404: Row = { visitor: "login", participant: "404", outsider: "404", judge: "allowed", admin: "allowed", mentor: "404" };

/**
 * "page": what the page-roles table (app/modules/auth/access.ts) says for the route's URL, the one
 * declaration the guards apply; { layout }: whoever may open some page under that folder. A Row: an
 * outcome that depends on data (a closed gate, another team's file), written here.
 */
type Expected = Row | "page" | { layout: string };

interface Case {
  name?: string;
  params?: (world: RouteWorld) => Record<string, string>;
  loader?: Expected;
  action?: Expected;
}

function rowFor(allowed: readonly AppRole[] | "public"): Row {
  if (allowed === "public") return everyone;
  const as = (role: AppRole): Outcome => (allowed.includes(role) ? "allowed" : "403");
  return { visitor: "login", participant: as("participant"), outsider: as("participant"), judge: as("judge"), admin: as("admin"), mentor: as("mentor") };
}

function expectedRow(expected: Expected, url: string): Row {
  if (expected === "page") return rowFor(rolesForPath(new URL(url, "http://localhost").pathname));
  if ("layout" in expected) return rowFor(rolesUnder(expected.layout));
  return expected;
}

/**
 * The table. "participant" is a member of the team that owns the submission; "outsider" a participant of
 * another team. Participant screens admit every signed-in role (docs/domain.md); /dashboard only staff, and
 * everything but Submissions (and its 404s) only admins.
 */
const matrix: Record<string, Case[]> = {
  root: [{ loader: everyone }],
  "routes/_index": [{}],
  "routes/login": [{ loader: "page", action: "page" }],
  "routes/logout": [{ loader: "page", action: "page" }],
  // The language switch: anyone sets their own cookie (and a GET only goes home).
  "routes/language": [{ loader: everyone, action: everyone }],
  "routes/register": [{ loader: "page", action: "page" }],
  // A forgotten password and a mailed link's page are public; the link's page without a live link says so (404).
  "routes/forgot-password": [{ loader: "page", action: "page" }],
  "routes/set-password": [{ loader: nobody, action: everyone }],
  // Sign-in with the organisers' identity provider: public, and not there (404) while no provider is configured,
  // as here; a GET of the start only goes to /login (tests/integration/oidc-sign-in.test.ts has the flow).
  "routes/auth.oidc": [{ loader: everyone, action: nobody }],
  "routes/auth.oidc_.callback": [{ loader: nobody }],
  "routes/_app.account.password": [{ loader: "page", action: "page" }],
  "routes/_app.team": [{ loader: "page", action: "page" }],
  // The not-found page answers 404 to everyone, by design.
  "routes/404": [{ loader: nobody }],
  "routes/$": [{ params: () => ({ "*": "nowhere" }), loader: everyone, action: everyone }],
  "routes/_app": [{ loader: { layout: "/" } }],
  "routes/_app.welcome": [{ loader: "page", action: "page" }],
  "routes/_app.home": [{ loader: "page", action: "page" }],
  "routes/_app.notification": [{ loader: "page" }],
  "routes/_app.preloader": [{ loader: "page" }],
  "routes/_app.gates": [{ loader: "page" }],
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
      loader: staffOnly404,
      action: { visitor: "login", participant: "403", outsider: "403", judge: "403", admin: "403", mentor: "403" },
    },
  ],
  // A prediction challenge's page: a judged challenge has none (404); a post is read (a choice or a file) before who sends it.
  "routes/_app.predictions.$id": [
    {
      params: (w) => ({ id: String(w.openChallenge) }),
      loader: { visitor: "login", participant: "404", outsider: "404", judge: "404", admin: "404", mentor: "404" },
      action: signedIn,
    },
  ],
  // A code challenge's page: a judged challenge has none (404); a post is refused before its body is read (staff have
  // no team: 403; a team's member is told the challenge is not checked by tests).
  "routes/_app.code.$id": [
    {
      params: (w) => ({ id: String(w.openChallenge) }),
      loader: { visitor: "login", participant: "404", outsider: "404", judge: "404", admin: "404", mentor: "404" },
      action: { visitor: "login", participant: "allowed", outsider: "allowed", judge: "403", admin: "403", mentor: "403" },
    },
  ],
  "routes/_app.submition_.$id.question": [
    // The form is read first (an empty one is a 400 for everyone); who may ask about what: tests/integration/threads.test.ts.
    { name: "an open challenge", params: (w) => ({ id: String(w.openChallenge) }), loader: signedIn, action: signedIn },
    { name: "a challenge of a closed gate", params: (w) => ({ id: String(w.closedChallenge) }), loader: staffOnly404, action: signedIn },
  ],
  // A team's own thread: another team, staff and mentors (who have no team) are told it does not exist.
  "routes/_app.threads.$id": [{ params: (w) => ({ id: String(w.threadOfA) }), loader: ownTeamOnly, action: ownTeamOnly }],
  "routes/_app.status": [{ loader: "page" }],
  "routes/_app.scoreboard": [{ loader: "page" }],
  "routes/_app.announcement": [{ loader: "page", action: "page" }],
  "routes/_app.timer": [{ loader: "page" }],
  "routes/challenge.$id.attachment": [
    { name: "an open challenge", params: (w) => ({ id: String(w.openChallenge) }), loader: signedIn },
    {
      name: "a challenge of a closed gate",
      params: (w) => ({ id: String(w.closedChallenge) }),
      loader: staffOnly404,
    },
  ],
  "routes/submissions.$id.file": [{ params: (w) => ({ id: String(w.submissionWithFile) }), loader: ownTeamOrStaff }],
  "routes/submissions.$id.inline": [{ params: (w) => ({ id: String(w.submissionWithFile) }), loader: ownTeamOrStaff }],
  // A stored home video: the home page shows it to every signed-in role.
  "routes/media.$id": [{ params: (w) => ({ id: w.homeVideo }), loader: "page" }],
  "routes/submition.$id.upload": [{ params: (w) => ({ id: String(w.openChallenge) }), loader: nobody, action: submitter }],
  "routes/dashboard": [{ loader: { layout: "/dashboard" } }],
  "routes/dashboard._index": [{ loader: "page", action: "page" }],
  "routes/dashboard.$": [{ params: () => ({ "*": "nowhere" }), loader: { layout: "/dashboard" } }],
  // The dashboard's own not-found page: 404 to staff, the usual refusal to everyone else.
  "routes/dashboard.404": [{ loader: { visitor: "login", participant: "403", outsider: "403", judge: "404", admin: "404", mentor: "404" } }],
  "routes/dashboard.submissions": [{ loader: "page", action: "page" }],
  "routes/dashboard.mailbox": [{ loader: "page" }],
  "routes/dashboard.judge": [{ loader: "page", action: "page" }],
  "routes/dashboard.backlog": [{ loader: "page" }],
  "routes/dashboard.judge-errors": [{ loader: "page" }],
  "routes/dashboard.judges": [{ loader: "page", action: "page" }],
  "routes/dashboard.teams": [{ loader: "page", action: "page" }],
  "routes/dashboard.awards": [{ loader: "page", action: "page" }],
  "routes/dashboard.users": [{ loader: "page", action: "page" }],
  "routes/dashboard.usersrank": [{ loader: "page" }],
  "routes/dashboard.mentors": [{ loader: "page" }],
  "routes/dashboard.questions": [{ loader: "page", action: "page" }],
  "routes/dashboard.questions_.$id": [{ params: (w) => ({ id: String(w.threadOfA) }), loader: "page", action: "page" }],
  "routes/dashboard.needs": [{ loader: "page" }],
  "routes/dashboard.allchallenges": [{ loader: "page", action: "page" }],
  "routes/dashboard.challenges": [{ loader: "page", action: "page" }],
  "routes/dashboard.getAllChallenges": [{ loader: "page", action: "page" }],
  "routes/dashboard.challenges_.$id.attachment": [{ params: (w) => ({ id: String(w.openChallenge) }), loader: "page" }],
  // A judged challenge has no predictions page (404); the admin's form reads its intent before anything else.
  "routes/dashboard.predictions.$id": [
    {
      params: (w) => ({ id: String(w.openChallenge) }),
      loader: { visitor: "login", participant: "403", outsider: "403", judge: "403", admin: "404", mentor: "403" },
      action: "page",
    },
  ],
  // Admins and judges (every run; judges rejudge); a judged challenge has no code page (404); the form reads its intent
  // before anything else (an empty one: 400 to both).
  "routes/dashboard.code.$id": [
    {
      params: (w) => ({ id: String(w.openChallenge) }),
      loader: { visitor: "login", participant: "403", outsider: "403", judge: "404", admin: "404", mentor: "403" },
      action: "page",
    },
  ],
  "routes/dashboard.notifications": [{ loader: "page", action: "page" }],
  "routes/dashboard.settings": [{ loader: "page", action: "page" }],
  "routes/dashboard.registrations": [{ loader: "page", action: "page" }],
  "routes/dashboard.registrations.export": [{ loader: "page" }],
  "routes/dashboard.exports.standings[.csv]": [{ loader: "page" }],
  "routes/dashboard.exports.users-rank[.csv]": [{ loader: "page" }],
  // Admins only, judges too are refused (a judge's own scores are in the workspace).
  "routes/dashboard.audit": [{ loader: "page" }],
  "routes/dashboard.exports.audit[.csv]": [{ loader: "page" }],
  // The teams' flag answers, the sharing signals, every team's per-team flag (a POST) and the CTFtime feed: admins only.
  "routes/dashboard.attempts": [{ loader: "page", action: "page" }],
  "routes/dashboard.exports.attempts[.csv]": [{ loader: "page" }],
  "routes/dashboard.exports.team-flags[.csv]": [{ action: "page" }],
  "routes/dashboard.exports.ctftime[.json]": [{ loader: "page" }],
  // Integrity signals and their CSV: admins only (judges read a submission's signals in their workspace).
  "routes/dashboard.signals": [{ loader: "page", action: "page" }],
  "routes/dashboard.exports.signals[.csv]": [{ loader: "page" }],
  "routes/dashboard.tokens": [{ loader: "page", action: "page" }],
  "routes/dashboard.import": [{ loader: "page", action: "page" }],
  "routes/docs.api": [{ loader: "page" }],
  // An unknown /api/v1 path is a JSON 404 for everyone.
  "routes/api.v1.$": [{ params: () => ({ "*": "nowhere" }), loader: nobody, action: nobody }],
};

/**
 * The JSON API keeps its role table in its catalogue (app/modules/api/operations.ts: who may call each
 * path and method); tests/integration/api-openapi.test.ts calls every documented operation as a visitor
 * (401) and as each role (403 or allowed, another team's data 403) and fails for an undocumented route.
 */
const coveredByApiCatalogue = (id: string) => id.startsWith("routes/api.v1.") && id !== "routes/api.v1.$";

function classify(answer: { status: number; location: string | null }): Outcome | `error ${number}` {
  if ((answer.status === 302 || answer.status === 303) && answer.location?.startsWith("/login?redirectTo=")) return "login";
  if (answer.status === 403) return "403";
  if (answer.status === 404) return "404";
  if (answer.status >= 500) return `error ${answer.status}`;
  return "allowed";
}

let world: RouteWorld;
beforeAll(async () => {
  world = await createRouteWorld();
});

async function call(module: RouteModule, kind: "loader" | "action", role: Role, url: string, params: Record<string, string>) {
  // Signing out ends the session it is sent with: it gets a session of its own, the others keep theirs.
  const session = kind === "action" && url === "/logout" ? await world.freshCookie(role) : world.cookies[role];
  const cookie: Record<string, string> = session ? { Cookie: session } : {};
  const init: RequestInit = kind === "loader" ? { headers: cookie } : { method: "POST", headers: { ...cookie, "Content-Type": "application/x-www-form-urlencoded" }, body: "" };
  return classify(answerOf(await callRoute(module, kind, { request: new Request(`http://localhost${url}`, init), params, context: {} })));
}

describe("authorisation matrix", () => {
  it("has a row for every route of the manifest, and no row for a route that is gone", async () => {
    const missing: string[] = [];
    for (const route of routeManifest) {
      const module = await loadRouteModule(route);
      const cases = matrix[route.id];
      if (!cases) {
        if ((module.loader || module.action) && !coveredByApiCatalogue(route.id)) missing.push(route.id);
        continue;
      }
      for (const testCase of cases) {
        // A row must say what happens to each function the module exports, and nothing it does not.
        expect(Boolean(testCase.loader), `${route.id}: loader row`).toBe(Boolean(module.loader));
        expect(Boolean(testCase.action), `${route.id}: action row`).toBe(Boolean(module.action));
      }
    }
    expect(missing, "routes with a loader or action but no row in the matrix").toEqual([]);
    expect(Object.keys(matrix).filter((id) => !routeExists(id))).toEqual([]);
  });

  for (const route of routeManifest) {
    for (const testCase of matrix[route.id] ?? []) {
      for (const kind of ["loader", "action"] as const) {
        const expected = testCase[kind];
        if (!expected) continue;
        it(`${kind === "loader" ? "GET" : "POST"} ${route.id}${testCase.name ? ` (${testCase.name})` : ""}`, async () => {
          const module = await loadRouteModule(route);
          const params = testCase.params?.(world) ?? {};
          const url = routeUrl(route, params);
          const actual: Record<string, string> = {};
          for (const role of roles) actual[role] = await call(module, kind, role, url, params);
          expect(actual).toEqual(expectedRow(expected, url));
        });
      }
    }
  }
});
