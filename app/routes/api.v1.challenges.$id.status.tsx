import { ChallengeStatusOutSchema } from "~/modules/api/schemas";
import { setChallengeStatus } from "~/modules/challenges/challenges.server";
import { ChallengeStatusSchema } from "~/modules/challenges/schema";
import { apiResource, pathId, readBody, respond } from "~/glue/api.server";

const resource = apiResource("/challenges/{id}/status", {
  PATCH: async ({ request, params }) => {
    const id = pathId(params.id);
    const { status } = await readBody(request, ChallengeStatusSchema);
    return respond(ChallengeStatusOutSchema, await setChallengeStatus(id, status));
  },
});
export const loader = resource.loader;
export const action = resource.action;
