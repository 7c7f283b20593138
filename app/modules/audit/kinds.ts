/**
 * What the audit trail records (docs/domain.md "Audit trail"): every kind of change to what a team sees or
 * is ranked by, named once here with the label the audit page shows. No server-only import: the page's
 * filter lists these.
 */
export const auditKinds = {
  "score.given": "Score given",
  "score.changed": "Score changed",
  "submission.created": "Submission sent",
  "submission.updated": "Submission updated",
  "challenge.created": "Challenge created",
  "challenge.updated": "Challenge edited",
  "challenge.status": "Challenge activated or deactivated",
  "challenge.deleted": "Challenge deleted",
  "gate.changed": "Gate changed",
  "event.final": "Final countdown changed",
  "event.submissions-close": "Submissions close changed",
  "event.judging": "Judging settings changed",
  "event.feedback": "Judging feedback published or withdrawn",
  "event.divisions": "Divisions changed",
  "event.team-cap": "Team size cap changed",
  "event.flags": "Flag challenges' settings changed",
  "event.webhook": "First-blood webhook changed",
  "scoreboard.frozen": "Scoreboard frozen",
  "scoreboard.unfrozen": "Scoreboard unfrozen",
  "team.created": "Team created",
  "team.renamed": "Team renamed",
  "team.division": "Team division changed",
  "team.deleted": "Team deleted",
  "user.created": "User created",
  "user.updated": "User changed",
  "user.deleted": "User deleted",
  "session.ended": "Session ended by an admin",
  // A user's own password: changed while signed in, or chosen with a mailed link (a reset or a new account's).
  "user.password-changed": "Password changed by its user",
  "user.password-set": "Password chosen with a mailed link",
  // While passwords are off for participants, a participant's mailed link confirms the address instead.
  "user.address-confirmed": "Address confirmed with a mailed link",
  // An account linked to its person at the organisers' identity provider, at their first sign-in through it.
  "user.identity-bound": "Account linked to the identity provider",
  // An admin's new set-password link for a user (a new account's link goes with its "User created").
  "mail.link-sent": "Set-password link sent",
  "token.created": "API token created",
  "token.revoked": "API token revoked",
  "import.accounts": "Accounts imported",
  "import.challenges": "Challenges imported",
  "flag.solved": "Flag solved",
  "flag.attempts-reset": "Wrong answers reset",
  "flag.answers": "Flag answers changed",
  // A read, not a change: every team's per-team flag of a challenge downloaded (app/modules/flags/attempts.server.ts).
  "flag.export": "Per-team flags exported",
  "predictions.settings": "Prediction settings changed",
  "predictions.labels": "Prediction labels uploaded",
  "predictions.revealed": "Private scores revealed",
  "code.settings": "Code settings changed",
  "code.tests": "Hidden tests uploaded",
  "code.checker": "Checker program changed",
  "code.rejudged": "Code runs rejudged",
  "code.paused": "Code judging paused",
  "code.resumed": "Code judging resumed",
  "hint.unlocked": "Hint unlocked",
  "award.given": "Award given",
  "award.revoked": "Award revoked",
  "signal.dismissed": "Integrity signal dismissed",
  "signal.confirmed": "Integrity signal confirmed",
  "signal.settings": "Integrity signals' settings changed",
  "announcement.created": "Announcement posted",
  "notification.sent": "Notification sent",
  "videos.changed": "Home videos changed",
  "meal.added": "Meal added",
  "meal.removed": "Meal removed",
  // Teams that form themselves (docs/domain.md "Teams that form themselves"): the participants' own changes.
  "team.joined": "Joined a team",
  "team.left": "Left a team",
  "team.member-removed": "Member removed by the captain",
  "team.invite-created": "Team invitation created",
  "team.invite-revoked": "Team invitation revoked",
  "event.team-formation": "Team formation changed",
  "event.participant-passwords": "Password sign-in for participants changed",
} as const;

export type AuditKind = keyof typeof auditKinds;

export const auditKindList = Object.keys(auditKinds) as AuditKind[];

export function isAuditKind(value: string): value is AuditKind {
  return Object.hasOwn(auditKinds, value);
}
