/**
 * Every screen of the platform, one entry a page route (app/routes/*.tsx with a default export): who sees it
 * and where. tests/e2e/screens-layout.spec.ts opens each at 1366, 820 and 390 px in both languages;
 * app/routes/screens-list.test.ts fails when a route that renders a page has no entry here.
 */
export type Who = "nobody" | "participant" | "admin" | "judge";

/** What a screen's address needs, made by the spec for itself. */
export interface ScreenFixture {
  challengeId: number;
  threadId: number;
  judgeChallengeId: number;
}

export interface Screen {
  /** The route file it renders (app/routes/<route>.tsx). */
  readonly route: string;
  readonly name: string;
  readonly who: Who;
  readonly path: (fixture: ScreenFixture) => string;
}

const at = (path: string) => () => path;

export const SCREENS: readonly Screen[] = [
  { route: "_index", name: "intro", who: "nobody", path: at("/") },
  { route: "login", name: "login", who: "nobody", path: at("/login") },
  { route: "register", name: "register", who: "nobody", path: at("/register") },
  { route: "forgot-password", name: "forgot-password", who: "nobody", path: at("/forgot-password") },
  { route: "set-password", name: "set-password", who: "nobody", path: at("/set-password?token=no-such-link") },
  { route: "docs.api", name: "api-docs", who: "nobody", path: at("/docs/api") },
  { route: "404", name: "not-found", who: "nobody", path: at("/404") },
  { route: "_app.welcome", name: "welcome", who: "participant", path: at("/welcome") },
  { route: "_app.preloader", name: "ready", who: "participant", path: at("/preloader") },
  { route: "_app.home", name: "home", who: "participant", path: at("/home") },
  { route: "_app.gates", name: "gates", who: "participant", path: at("/gates") },
  { route: "_app.gate.$wave", name: "gate", who: "participant", path: at("/gate/1") },
  { route: "_app.submition.$id", name: "challenge", who: "participant", path: (f) => `/submition/${f.challengeId}` },
  { route: "_app.submition_.$id.question", name: "question", who: "participant", path: (f) => `/submition/${f.challengeId}/question` },
  { route: "_app.threads.$id", name: "thread", who: "participant", path: (f) => `/threads/${f.threadId}` },
  { route: "_app.status", name: "status", who: "participant", path: at("/status") },
  { route: "_app.scoreboard", name: "scoreboard", who: "participant", path: at("/scoreboard") },
  { route: "_app.announcement", name: "announcements", who: "participant", path: at("/announcement") },
  { route: "_app.notification", name: "notifications", who: "participant", path: at("/notification") },
  { route: "_app.timer", name: "timer", who: "participant", path: at("/timer") },
  { route: "_app.account.password", name: "account-password", who: "participant", path: at("/account/password") },
  { route: "_app.team", name: "team", who: "participant", path: at("/team") },
  { route: "_app.predictions.$id", name: "predictions", who: "participant", path: (f) => `/predictions/${f.challengeId}` },
  { route: "_app.code.$id", name: "code", who: "participant", path: (f) => `/code/${f.challengeId}` },
  { route: "dashboard._index", name: "dashboard", who: "admin", path: at("/dashboard") },
  { route: "dashboard.challenges", name: "dashboard-challenges", who: "admin", path: at("/dashboard/challenges") },
  { route: "dashboard.allchallenges", name: "dashboard-allchallenges", who: "admin", path: at("/dashboard/allchallenges") },
  { route: "dashboard.getAllChallenges", name: "dashboard-getAllChallenges", who: "admin", path: at("/dashboard/getAllChallenges") },
  { route: "dashboard.submissions", name: "dashboard-submissions", who: "judge", path: at("/dashboard/submissions") },
  { route: "dashboard.judge", name: "dashboard-judge", who: "judge", path: (f) => `/dashboard/judge?challenge=${f.judgeChallengeId}` },
  { route: "dashboard.judges", name: "dashboard-judges", who: "admin", path: at("/dashboard/judges") },
  { route: "dashboard.attempts", name: "dashboard-attempts", who: "admin", path: at("/dashboard/attempts") },
  { route: "dashboard.teams", name: "dashboard-teams", who: "admin", path: at("/dashboard/teams") },
  { route: "dashboard.users", name: "dashboard-users", who: "admin", path: at("/dashboard/users") },
  { route: "dashboard.usersrank", name: "dashboard-usersrank", who: "admin", path: at("/dashboard/usersrank") },
  { route: "dashboard.awards", name: "dashboard-awards", who: "admin", path: at("/dashboard/awards") },
  { route: "dashboard.import", name: "dashboard-import", who: "admin", path: at("/dashboard/import") },
  { route: "dashboard.registrations", name: "dashboard-registrations", who: "admin", path: at("/dashboard/registrations") },
  { route: "dashboard.signals", name: "dashboard-signals", who: "admin", path: at("/dashboard/signals") },
  { route: "dashboard.predictions.$id", name: "dashboard-predictions", who: "admin", path: (f) => `/dashboard/predictions/${f.challengeId}` },
  { route: "dashboard.code.$id", name: "dashboard-code", who: "admin", path: (f) => `/dashboard/code/${f.challengeId}` },
  { route: "dashboard.notifications", name: "dashboard-notifications", who: "admin", path: at("/dashboard/notifications") },
  { route: "dashboard.questions", name: "dashboard-questions", who: "admin", path: at("/dashboard/questions") },
  { route: "dashboard.questions_.$id", name: "dashboard-question", who: "admin", path: (f) => `/dashboard/questions/${f.threadId}` },
  { route: "dashboard.mentors", name: "dashboard-mentors", who: "admin", path: at("/dashboard/mentors") },
  { route: "dashboard.needs", name: "dashboard-needs", who: "admin", path: at("/dashboard/needs") },
  { route: "dashboard.settings", name: "dashboard-settings", who: "admin", path: at("/dashboard/settings") },
  { route: "dashboard.tokens", name: "dashboard-tokens", who: "admin", path: at("/dashboard/tokens") },
  { route: "dashboard.audit", name: "dashboard-audit", who: "admin", path: at("/dashboard/audit") },
  { route: "dashboard.mailbox", name: "dashboard-mailbox", who: "admin", path: at("/dashboard/mailbox") },
  { route: "dashboard.404", name: "dashboard-404", who: "admin", path: at("/dashboard/404") },
];

/** Route files with a default export that are no screen of their own: layouts, whose pages are the screens. */
export const LAYOUTS: readonly string[] = ["_app", "dashboard"];
