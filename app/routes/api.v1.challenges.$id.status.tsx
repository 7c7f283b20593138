import { ChallengeStatusOutSchema } from "~/modules/api/schemas";
import { setChallengeStatus } from "~/modules/challenges/challenges.server";
import { ChallengeStatusSchema } from "~/modules/challenges/schema";
import { requireApiRole } from "~/utils/api-auth.server";
import { apiResource, pathId, readBody, respond } from "~/utils/api.server";

const resource = apiResource({
  PATCH: async ({ request, params }) => {
    await requireApiRole(request, "admin");
    const id = pathId(params.id);
    const { status } = await readBody(request, ChallengeStatusSchema);
    return respond(ChallengeStatusOutSchema, await setChallengeStatus(id, status));
  },
});
export const loader = resource.loader;
export const action = resource.action;
