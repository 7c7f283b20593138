/**
 * Who may do what by role, in one place (docs/domain.md "Roles"): who may open which page (`pageRoles`, read by
 * the route guards, the queue board's Express guard, the login redirect and tests), and the role rules that
 * are not a page (who reads every team's work, who organises threads, who manages the users, who saves the
 * home videos, who belongs to a team, where a login lands): routes, glue, components and modules ask here
 * rather than compare a role by hand. Pure: the browser may bundle it.
 */
export const roles = ["admin", "judge", "participant", "mentor"] as const;
export type Role = (typeof roles)[number];

/** Where each role lands after login when no usable `redirectTo` was given. */
export function roleHome(role: Role): string {
  switch (role) {
    case "admin":
      return "/dashboard";
    case "judge":
      return "/dashboard/judge";
    case "participant":
      return "/welcome";
    case "mentor":
      return "/dashboard/questions";
  }
}

/**
 * Who reads every team's submissions and every challenge, opened or not: admins and judges. A list, never
 * "not a participant": a role added later (a mentor) reads nothing of other teams until it is listed here.
 */
export const STAFF_READERS: readonly Role[] = ["admin", "judge"];

/**
 * Who may open which page: the one table of page roles (the JSON API's are in its operations catalogue).
 * A page's loader and action apply it (`requirePage` in app/glue/auth.server.ts), the login redirect
 * reads it, and tests/integration/authorization-matrix.test.ts checks every route against it. The first
 * entry whose path is the page's path, or a folder above it, wins. Participant screens admit every
 * signed-in role (docs/domain.md).
 */
export const pageRoles: ReadonlyArray<{ path: string; exact?: true; roles: readonly Role[] | "public" }> = [
  { path: "/", exact: true, roles: "public" },
  { path: "/login", exact: true, roles: "public" },
  { path: "/logout", exact: true, roles: "public" },
  { path: "/language", exact: true, roles: "public" },
  { path: "/register", exact: true, roles: "public" },
  // A forgotten password, and a mailed link's page (docs/domain.md "Mail").
  { path: "/forgot-password", exact: true, roles: "public" },
  { path: "/set-password", exact: true, roles: "public" },
  // Sign-in with the organisers' identity provider: its start and the provider's way back (docs/domain.md).
  { path: "/auth/oidc", exact: true, roles: "public" },
  { path: "/auth/oidc/callback", exact: true, roles: "public" },
  { path: "/404", exact: true, roles: "public" },
  { path: "/docs/api", exact: true, roles: "public" },
  { path: "/dashboard/submissions", roles: ["admin", "judge"] },
  { path: "/dashboard/judge", exact: true, roles: ["admin", "judge"] },
  { path: "/dashboard/backlog", exact: true, roles: ["admin", "judge"] },
  // A code challenge's runs: judges see every one and rejudge; its settings, tests and pausing are admins' (the action checks).
  { path: "/dashboard/code", roles: ["admin", "judge"] },
  // Mentors see and answer the teams' threads, and nothing else of the dashboard.
  { path: "/dashboard/questions", roles: ["admin", "mentor"] },
  // Points given by hand move the board: admins only, whoever else the dashboard may one day admit.
  { path: "/dashboard/awards", exact: true, roles: ["admin"] },
  // The audit trail and its CSV: admins only (a judge's own scores are in the judge workspace; docs/domain.md).
  { path: "/dashboard/audit", exact: true, roles: ["admin"] },
  { path: "/dashboard/exports/audit.csv", exact: true, roles: ["admin"] },
  // The teams' flag answers, the sharing signals and every team's per-team flag: admins only (never a player,
  // nor a judge: a wrong answer may be a near miss of the flag).
  { path: "/dashboard/attempts", exact: true, roles: ["admin"] },
  { path: "/dashboard/exports/attempts.csv", exact: true, roles: ["admin"] },
  { path: "/dashboard/exports/team-flags.csv", exact: true, roles: ["admin"] },
  { path: "/dashboard/exports/ctftime.json", exact: true, roles: ["admin"] },
  // Integrity signals and their CSV: admins decide (judges read a submission's signals in their workspace).
  { path: "/dashboard/signals", exact: true, roles: ["admin"] },
  { path: "/dashboard/exports/signals.csv", exact: true, roles: ["admin"] },
  { path: "/dashboard", roles: ["admin"] },
  { path: "/", roles },
];

function covers(entry: (typeof pageRoles)[number], path: string): boolean {
  if (entry.exact || entry.path === path) return entry.path === path;
  return path.startsWith(entry.path.endsWith("/") ? entry.path : `${entry.path}/`);
}

/**
 * A path as the router matches it against the routes: dot segments resolved and backslashes read as slashes (as
 * the request's URL is parsed before Remix sees it), each segment percent-decoded, in any case (Remix's routes
 * are case-insensitive), repeated and trailing slashes dropped. "/DASHBOARD/exports/team-flags.csv",
 * "/%64ashboard//exports/team-flags.csv" and "/x/../dashboard/exports/team-flags.csv" reach the same route as the
 * lower-case path, so they read the same entry of the table; a raw Express path (req.path) reads as Remix's.
 * (An encoded "/" inside a segment is read as a separator: at worst a stricter entry.)
 */
export function routedPath(pathname: string): string {
  let resolved = pathname;
  try {
    // Appended to an origin, not resolved against one: "//x/y" stays a path, as in a request's URL.
    resolved = new URL(`http://routed.invalid${pathname.startsWith("/") ? "" : "/"}${pathname}`).pathname;
  } catch {
    // Not a path a URL can hold: read as it is.
  }
  const decoded = resolved
    .split("/")
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join("/");
  return decoded.toLowerCase().replace(/\/{2,}/g, "/").replace(/\/+$/, "") || "/";
}

/** The roles that may open a page ("public": visitors too), for the path as the router matches it. */
export function rolesForPath(pathname: string): readonly Role[] | "public" {
  const path = routedPath(pathname);
  return pageRoles.find((entry) => covers(entry, path))!.roles;
}

/** The roles that may open some page under `folder`: what its layout (and its not-found page) admits. */
export function rolesUnder(folder: string): readonly Role[] {
  const admitted = new Set<Role>();
  const inside = folder.endsWith("/") ? folder : `${folder}/`;
  for (const entry of pageRoles) {
    if (entry.roles === "public") continue;
    if (entry.path === folder || entry.path.startsWith(inside)) for (const role of entry.roles) admitted.add(role);
  }
  return roles.filter((role) => admitted.has(role));
}

/**
 * Who organises the teams' threads (claims, answers, closes them): whoever may open the questions queue. A
 * claim held by someone no longer in these roles holds nothing (app/modules/requests/threads.server.ts).
 */
export function isOrganiser(role: Role): boolean {
  return canOpen(role, "/dashboard/questions");
}

/** An organiser who may take over a thread another organiser holds, and speak to every team (publish an answer): an admin. */
export function mayOverrule(role: Role): boolean {
  return role === "admin";
}

/**
 * Who may save the two home videos: whoever may open the page that edits them, the dashboard's home (/welcome
 * shows them the same form). The API's `PUT /videos` is its catalogue's (app/modules/api/operations.ts).
 */
export function maySaveHomeVideos(role: Role): boolean {
  return canOpen(role, "/dashboard");
}

/**
 * Who manages the users (the Users page): an admin may not give themselves a role outside these, or nobody
 * might be left to give it back.
 */
export function mayManageUsers(role: Role): boolean {
  return canOpen(role, "/dashboard/users");
}

/**
 * Who belongs to a team: participants only. Every other role (admins, judges, mentors) has none: the import
 * and the users' forms refuse a team or a division for them ("staff" in their messages, which mentors are
 * too: not STAFF_READERS).
 */
export function belongsToTeam(role: Role): boolean {
  return role === "participant";
}

/** A team's submissions, scores and files: its own members, judges and admins (docs/domain.md). */
export function mayReadTeam(viewer: { role: Role; teamId: number | null }, teamId: number): boolean {
  return STAFF_READERS.includes(viewer.role) || (viewer.teamId !== null && viewer.teamId === teamId);
}

export function canOpen(role: Role, pathname: string): boolean {
  const allowed = rolesForPath(pathname);
  return allowed === "public" || allowed.includes(role);
}

/** A host no request can carry: a target that resolves to another origin than this one leaves the site. */
const HERE = "http://gatekeeper.invalid";

/**
 * A same-origin path or null, so a `redirectTo` or `next` cannot send anyone off-site. The target is
 * resolved the way a browser resolves a Location or a refresh URL (backslashes as slashes, tabs and
 * newlines dropped, `//host` as another host) and must stay on this origin; what comes back is that
 * resolved path, never the raw text. Control characters are refused outright. Where a target is written
 * into HTML (the preloader's refresh) it is HTML-escaped there, so the browser's entity decoding gives
 * back exactly this string. docs/RELIABILITY.md.
 */
export function safeRedirectPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return null;
  let resolved: URL;
  try {
    resolved = new URL(value, HERE);
  } catch {
    return null;
  }
  if (resolved.origin !== HERE) return null;
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  // Resolving can itself make `//host`: `/.//evil.example` and `/a/..//evil.example` become
  // `//evil.example`, which a browser reads as another host. The result is checked again.
  if (path.startsWith("//") || path.startsWith("/\\")) return null;
  return path;
}

/** After login: a `redirectTo` the role may open wins; otherwise the role's home. */
export function afterLoginPath(role: Role, redirectTo: unknown): string {
  const target = safeRedirectPath(redirectTo);
  if (target && target !== "/login" && canOpen(role, new URL(target, "http://x").pathname)) return target;
  return roleHome(role);
}

/** Where the login form sends a user: `afterLoginPath`, a participant on the way to their home passing the preloader first. */
export function afterLoginLanding(role: Role, redirectTo: unknown): string {
  const target = afterLoginPath(role, redirectTo);
  return role === "participant" && target === roleHome(role) ? `/preloader?next=${target}` : target;
}
