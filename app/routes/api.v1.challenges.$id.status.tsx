import { ChallengeStatusOutSchema } from "~/modules/api/schemas";
import { setChallengeStatus } from "~/modules/challenges/challenges.server";
import { ChallengeStatusSchema } from "~/modules/challenges/schema";
import { actorOf } from "~/glue/actor.server";
import { apiResource, pathId, readBody, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/challenges/{id}/status", {
  PATCH: async ({ request, params, caller }) => {
    const id = pathId(params.id);
    const { status } = await readBody(request, ChallengeStatusSchema);
    return respond(ChallengeStatusOutSchema, await setChallengeStatus(actorOf(caller, request), id, status));
  },
});
export const loader = resource.loader;
export const action = resource.action;
