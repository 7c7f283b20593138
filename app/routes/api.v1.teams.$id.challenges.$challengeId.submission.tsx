import { ApiError } from "~/modules/api/errors";
import { OwnSubmissionSchema, ownSubmissionOut } from "~/modules/api/schemas";
import { messages } from "~/modules/messages";
import { getChallengeForSubmission } from "~/modules/participant/board.server";
import { apiResource, pathId, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/teams/{id}/challenges/{challengeId}/submission", {
  GET: async ({ params, caller: user }) => {
    const teamId = pathId(params.id);
    // The submission page's read, for this team: participants see only challenges they may open.
    const found = await getChallengeForSubmission(pathId(params.challengeId), { role: user.role, teamId });
    if (!found?.submission) throw new ApiError("not_found", messages.api.notFound);
    // With the judging feedback once its gate's is published (app/modules/judging/feedback.server.ts).
    return respond(OwnSubmissionSchema, ownSubmissionOut(found.submission));
  },
});
export const loader = resource.loader;
export const action = resource.action;
