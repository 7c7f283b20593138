/**
 * The words of the API reference page (/docs/api) in the screens' languages (docs/decisions/025-english-and-arabic.md).
 * operations.ts keeps each call's English for /api/v1/openapi.json; the page shows the same texts through
 * these keys (app/locales/en.json holds that English verbatim, operation-texts.test.ts checks it). Keys are
 * written in full, so the locale check sees each one used.
 */
import type { Role } from "../auth/access.ts";
import { apiOperations, type HttpMethod } from "./operations.ts";

interface OperationTexts {
  summary: string;
  description?: string;
}

/** Each call's keys, by "<METHOD> <path>" as operations.ts names it. */
export const operationTexts: Record<string, OperationTexts> = {
  "POST /auth/login": { summary: "apiDocs.calls.authLogin.summary", description: "apiDocs.calls.authLogin.description" },
  "GET /auth/me": { summary: "apiDocs.calls.authMe.summary", description: "apiDocs.calls.authMe.description" },
  "GET /videos": { summary: "apiDocs.calls.videosGet.summary" },
  "PUT /videos": { summary: "apiDocs.calls.videosPut.summary", description: "apiDocs.calls.videosPut.description" },
  "GET /announcements": { summary: "apiDocs.calls.announcementsGet.summary" },
  "POST /announcements": { summary: "apiDocs.calls.announcementsPost.summary", description: "apiDocs.calls.announcementsPost.description" },
  "POST /notifications": { summary: "apiDocs.calls.notificationsPost.summary", description: "apiDocs.calls.notificationsPost.description" },
  "GET /users": { summary: "apiDocs.calls.usersGet.summary" },
  "POST /users": { summary: "apiDocs.calls.usersPost.summary", description: "apiDocs.calls.usersPost.description" },
  "PATCH /users/{id}": { summary: "apiDocs.calls.userPatch.summary", description: "apiDocs.calls.userPatch.description" },
  "DELETE /users/{id}": { summary: "apiDocs.calls.userDelete.summary", description: "apiDocs.calls.userDelete.description" },
  "GET /users/{id}/sessions": { summary: "apiDocs.calls.userSessionsGet.summary", description: "apiDocs.calls.userSessionsGet.description" },
  "DELETE /users/{id}/sessions": { summary: "apiDocs.calls.userSessionsDelete.summary", description: "apiDocs.calls.userSessionsDelete.description" },
  "DELETE /users/{id}/sessions/{sessionId}": { summary: "apiDocs.calls.userSessionDelete.summary" },
  "POST /users/{id}/password-link": { summary: "apiDocs.calls.userPasswordLinkPost.summary", description: "apiDocs.calls.userPasswordLinkPost.description" },
  "GET /teams": { summary: "apiDocs.calls.teamsGet.summary" },
  "POST /teams": { summary: "apiDocs.calls.teamsPost.summary", description: "apiDocs.calls.teamsPost.description" },
  "PATCH /teams/{id}": { summary: "apiDocs.calls.teamPatch.summary", description: "apiDocs.calls.teamPatch.description" },
  "DELETE /teams/{id}": { summary: "apiDocs.calls.teamDelete.summary", description: "apiDocs.calls.teamDelete.description" },
  "PUT /teams/{id}/division": { summary: "apiDocs.calls.teamDivisionPut.summary", description: "apiDocs.calls.teamDivisionPut.description" },
  "DELETE /teams/{id}/division": { summary: "apiDocs.calls.teamDivisionDelete.summary", description: "apiDocs.calls.teamDivisionDelete.description" },
  "GET /teams/{id}/submissions": { summary: "apiDocs.calls.teamSubmissions.summary" },
  "GET /teams/{id}/scores": { summary: "apiDocs.calls.teamScores.summary" },
  "GET /teams/{id}/awards": { summary: "apiDocs.calls.teamAwards.summary", description: "apiDocs.calls.teamAwards.description" },
  "GET /teams/{id}/challenges/{challengeId}/submission": { summary: "apiDocs.calls.teamChallengeSubmission.summary", description: "apiDocs.calls.teamChallengeSubmission.description" },
  "GET /challenges": { summary: "apiDocs.calls.challengesGet.summary" },
  "POST /challenges": { summary: "apiDocs.calls.challengesPost.summary", description: "apiDocs.calls.challengesPost.description" },
  "GET /challenges/{id}": { summary: "apiDocs.calls.challengeGet.summary", description: "apiDocs.calls.challengeGet.description" },
  "PUT /challenges/{id}": { summary: "apiDocs.calls.challengePut.summary", description: "apiDocs.calls.challengePut.description" },
  "PATCH /challenges/{id}/status": { summary: "apiDocs.calls.challengeStatus.summary" },
  "GET /challenges/{id}/attachment": { summary: "apiDocs.calls.challengeAttachment.summary", description: "apiDocs.calls.challengeAttachment.description" },
  "POST /challenges/{id}/submission": { summary: "apiDocs.calls.challengeSubmit.summary", description: "apiDocs.calls.challengeSubmit.description" },
  "POST /challenges/{id}/flag": { summary: "apiDocs.calls.challengeFlag.summary", description: "apiDocs.calls.challengeFlag.description" },
  "POST /challenges/{id}/hints/{number}/unlock": { summary: "apiDocs.calls.challengeHintUnlock.summary", description: "apiDocs.calls.challengeHintUnlock.description" },
  "GET /challenges/{id}/runs": { summary: "apiDocs.calls.codeRunsGet.summary", description: "apiDocs.calls.codeRunsGet.description" },
  "POST /challenges/{id}/runs": { summary: "apiDocs.calls.codeRunsPost.summary", description: "apiDocs.calls.codeRunsPost.description" },
  "POST /challenges/{id}/rejudge": { summary: "apiDocs.calls.codeRejudge.summary", description: "apiDocs.calls.codeRejudge.description" },
  "GET /runs/{id}": { summary: "apiDocs.calls.runGet.summary", description: "apiDocs.calls.runGet.description" },
  "GET /challenges/{id}/predictions": { summary: "apiDocs.calls.predictionsGet.summary", description: "apiDocs.calls.predictionsGet.description" },
  "POST /challenges/{id}/predictions": { summary: "apiDocs.calls.predictionsPost.summary", description: "apiDocs.calls.predictionsPost.description" },
  "PUT /challenges/{id}/predictions/choice": { summary: "apiDocs.calls.predictionsChoice.summary", description: "apiDocs.calls.predictionsChoice.description" },
  "POST /challenges/{id}/predictions/reveal": { summary: "apiDocs.calls.predictionsReveal.summary", description: "apiDocs.calls.predictionsReveal.description" },
  "GET /gates": { summary: "apiDocs.calls.gatesGet.summary" },
  "GET /gates/{wave}/challenges": { summary: "apiDocs.calls.gateChallenges.summary", description: "apiDocs.calls.gateChallenges.description" },
  "GET /submissions": { summary: "apiDocs.calls.submissionsGet.summary" },
  "PUT /submissions/{id}/score": { summary: "apiDocs.calls.submissionScore.summary", description: "apiDocs.calls.submissionScore.description" },
  "GET /submissions/{id}/file": { summary: "apiDocs.calls.submissionFile.summary", description: "apiDocs.calls.submissionFile.description" },
  "GET /mentors": { summary: "apiDocs.calls.mentorsGet.summary" },
  "POST /mentors": { summary: "apiDocs.calls.mentorsPost.summary", description: "apiDocs.calls.mentorsPost.description" },
  "GET /needs": { summary: "apiDocs.calls.needsGet.summary" },
  "POST /needs": { summary: "apiDocs.calls.needsPost.summary" },
  "GET /scoreboard": { summary: "apiDocs.calls.scoreboard.summary", description: "apiDocs.calls.scoreboard.description" },
  "GET /audit": { summary: "apiDocs.calls.audit.summary", description: "apiDocs.calls.audit.description" },
  "GET /openapi.json": { summary: "apiDocs.calls.openapi.summary" },
};

/** The catalogue's tags, the page's section headings. */
export const tagTexts: Record<string, string> = {
  auth: "apiDocs.tags.auth",
  event: "apiDocs.tags.event",
  users: "apiDocs.tags.users",
  teams: "apiDocs.tags.teams",
  submissions: "apiDocs.tags.submissions",
  challenges: "apiDocs.tags.challenges",
  code: "apiDocs.tags.code",
  predictions: "apiDocs.tags.predictions",
  requests: "apiDocs.tags.requests",
  standings: "apiDocs.tags.standings",
  audit: "apiDocs.tags.audit",
  docs: "apiDocs.tags.docs",
};

/** The roles as the "Who" column names them. */
export const roleTexts: Record<Role, string> = {
  admin: "apiDocs.roles.admin",
  judge: "apiDocs.roles.judge",
  participant: "apiDocs.roles.participant",
  mentor: "apiDocs.roles.mentor",
};

export function operationKey(method: HttpMethod | string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

/** Every call of the catalogue with its keys, in the catalogue's order. */
export function catalogueWithTexts() {
  return Object.entries(apiOperations).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method, path, operation, texts: operationTexts[operationKey(method, path)] })),
  );
}
