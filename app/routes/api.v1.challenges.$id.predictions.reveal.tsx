import { ApiError } from "~/modules/api/errors";
import { MessageOutSchema } from "~/modules/api/schemas";
import { checkingChallenge } from "~/modules/challenges/checking-page.server";
import { messages } from "~/modules/messages";
import { actorOf } from "~/glue/actor.server";
import { reveal } from "~/glue/predictions.server";
import { apiResource, pathId, refusalOf, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
/** The dashboard predictions page's reveal (app/glue/predictions.server.ts): once, and for good. */
const resource = apiResource("/challenges/{id}/predictions/reveal", {
  POST: async ({ request, params, caller }) => {
    const challengeId = pathId(params.id);
    if (!(await checkingChallenge(challengeId, "metric", caller))) throw new ApiError("not_found", messages.participant.challengeNotFound);
    const reply = await reveal(actorOf(caller, request), challengeId);
    if (!reply.ok) throw refusalOf(reply);
    return respond(MessageOutSchema, { message: reply.message });
  },
});
export const loader = resource.loader;
export const action = resource.action;
