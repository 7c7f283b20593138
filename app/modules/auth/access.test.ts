import { describe, expect, it } from "vitest";
import {
  afterLoginLanding,
  afterLoginPath,
  belongsToTeam,
  canOpen,
  isOrganiser,
  mayManageUsers,
  maySaveHomeVideos,
  mayOverrule,
  roleHome,
  pageRoles,
  roles,
  rolesForPath,
  rolesUnder,
  safeRedirectPath,
} from "./access";

describe("who opens what", () => {
  it("sends each role to its home after login", () => {
    expect(roleHome("admin")).toBe("/dashboard");
    expect(roleHome("judge")).toBe("/dashboard/judge");
    expect(roleHome("participant")).toBe("/welcome");
  });

  it("keeps the dashboard for admins, its submissions for judges too", () => {
    expect(canOpen("participant", "/dashboard")).toBe(false);
    expect(canOpen("judge", "/dashboard/users")).toBe(false);
    expect(canOpen("judge", "/dashboard/submissions")).toBe(true);
    // Whole segments: the judges' calibration is not the judging workspace.
    expect(canOpen("judge", "/dashboard/judge")).toBe(true);
    expect(canOpen("judge", "/dashboard/judges")).toBe(false);
    expect(canOpen("admin", "/dashboard/judges")).toBe(true);
    expect(canOpen("admin", "/dashboard/users")).toBe(true);
    expect(canOpen("participant", "/gates")).toBe(true);
    expect(canOpen("judge", "/gates")).toBe(true);
  });

  it("gives every entry of the page-roles table to its path in any case and percent-encoded", () => {
    const encodeFirst = (path: string) => path.replace(/[a-z]/, (letter) => `%${letter.charCodeAt(0).toString(16)}`);
    for (const entry of pageRoles) {
      for (const variant of [entry.path.toUpperCase(), encodeFirst(entry.path), `${entry.path.replace(/\//g, "//")}/`]) {
        expect(rolesForPath(variant), `${variant} as ${entry.path}`).toEqual(rolesForPath(entry.path));
      }
    }
  });

  it("reads the page-roles table by whole path segments; a layout admits whoever opens a page under it", () => {
    expect(rolesForPath("/dashboard/submissions/")).toEqual(["admin", "judge"]);
    expect(rolesForPath("/dashboard/submissions-export")).toEqual(["admin"]);
    expect(rolesForPath("/dashboard/exports/standings.csv")).toEqual(["admin"]);
    expect(rolesForPath("/")).toBe("public");
    expect(rolesForPath("/docs/api")).toBe("public");
    expect(rolesForPath("/login/x")).toEqual(["admin", "judge", "participant", "mentor"]);
    // Read as the router matches the path (any case, percent-encoded, doubled slashes): never the catch-all "/".
    expect(rolesForPath("/DASHBOARD/exports/team-flags.csv")).toEqual(["admin"]);
    expect(rolesForPath("/%64ashboard/Attempts")).toEqual(["admin"]);
    expect(rolesForPath("/dashboard//exports/audit.csv/")).toEqual(["admin"]);
    expect(rolesForPath("/Dashboard/Submissions")).toEqual(["admin", "judge"]);
    expect(rolesForPath("/dashboard%2fusers")).toEqual(["admin"]);
    expect(rolesForPath("/%E0%A4%A/x")).toEqual(["admin", "judge", "participant", "mentor"]);
    expect(rolesUnder("/dashboard")).toEqual(["admin", "judge", "mentor"]);
    expect(rolesUnder("/")).toEqual(["admin", "judge", "participant", "mentor"]);
    // A mentor opens the questions and nothing else of the dashboard.
    expect(canOpen("mentor", "/dashboard/questions")).toBe(true);
    for (const page of ["/dashboard", "/dashboard/submissions", "/dashboard/judge", "/dashboard/teams", "/dashboard/audit"]) expect(canOpen("mentor", page)).toBe(false);
  });

  it("names the role rules that are not a page: organisers, who overrules them, the home videos, who has a team", () => {
    const who = (rule: (role: (typeof roles)[number]) => boolean) => roles.filter(rule);
    expect(who(isOrganiser)).toEqual(["admin", "mentor"]);
    expect(who(mayOverrule)).toEqual(["admin"]);
    expect(who(maySaveHomeVideos)).toEqual(["admin"]);
    expect(who(mayManageUsers)).toEqual(["admin"]);
    // Not the staff who read every team's work (admins and judges): every role but participants has no team.
    expect(who(belongsToTeam)).toEqual(["participant"]);
    expect(canOpen("admin", "/dashboard/queues")).toBe(true);
    for (const role of ["judge", "participant", "mentor"] as const) expect(canOpen(role, "/dashboard/queues")).toBe(false);
  });

  it("honours a redirectTo only when the role may open it", () => {
    expect(afterLoginPath("participant", "/gates")).toBe("/gates");
    expect(afterLoginPath("participant", "/dashboard/users")).toBe("/welcome");
    expect(afterLoginPath("judge", "/dashboard/users")).toBe("/dashboard/judge");
    expect(afterLoginPath("admin", "/gate/2?x=1")).toBe("/gate/2?x=1");
    expect(afterLoginPath("admin", "/login")).toBe("/dashboard");
    // Only a participant on the way to their home passes the preloader.
    expect(afterLoginLanding("participant", null)).toBe("/preloader?next=/welcome");
    expect(afterLoginLanding("participant", "/welcome")).toBe("/preloader?next=/welcome");
    expect(afterLoginLanding("participant", "/gates")).toBe("/gates");
    expect(afterLoginLanding("admin", "/welcome")).toBe("/welcome");
    expect(afterLoginLanding("judge", null)).toBe("/dashboard/judge");
  });

  it("gives back the path as a browser resolves it", () => {
    expect(safeRedirectPath("/gate/2?x=1#top")).toBe("/gate/2?x=1#top");
    expect(safeRedirectPath("/a/../gates")).toBe("/gates");
    expect(safeRedirectPath("/dashboard/submissions?gate=1&sort=team")).toBe("/dashboard/submissions?gate=1&sort=team");
  });

  it("never redirects off-site", () => {
    for (const bad of [
      "https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)", "", 42, "/a\nb",
      // Each becomes "//evil.example" where a browser's URL parser drops or reads a character, or
      // once its dot segments are resolved.
      "/\t/evil.example", "/\u0000/evil.example", "/\u007f/evil.example",
      "/.//evil.example", "/a/..//evil.example", "/%2e//evil.example", "/./\\evil.example", "/x/../\\evil.example",
    ]) {
      expect(safeRedirectPath(bad)).toBeNull();
      expect(afterLoginPath("participant", bad)).toBe("/welcome");
    }
  });
});
