import { ApiError } from "~/modules/api/errors";
import { ChallengeOutSchema } from "~/modules/api/schemas";
import { getChallenge } from "~/modules/challenges/challenges.server";
import { messages } from "~/modules/messages";
import { getChallengeForSubmission } from "~/modules/participant/board.server";
import { apiResource, pathId, respond } from "~/glue/api.server";

const resource = apiResource("/challenges/{id}", {
  GET: async ({ params, caller: user }) => {
    const id = pathId(params.id);
    // Admins read it as the dashboard's edit form does; others as the submission page (its visibility rule).
    const visible = user.role === "admin" || (await getChallengeForSubmission(id, user)) !== null;
    const challenge = visible ? await getChallenge(id) : null;
    if (!challenge) throw new ApiError("not_found", messages.participant.challengeNotFound);
    return respond(ChallengeOutSchema, challenge);
  },
});
export const loader = resource.loader;
export const action = resource.action;
