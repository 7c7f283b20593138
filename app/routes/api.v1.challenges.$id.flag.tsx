import { FlagVerdictSchema } from "~/modules/api/schemas";
import { sendFlag } from "~/modules/flags/guess.server";
import { FlagAnswerSchema } from "~/modules/flags/schema";
import { actorOf } from "~/glue/actor.server";
import { requestBegunAt } from "~/glue/request-time.server";
import { apiResource, pathId, readBody, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403: participants only) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
/** A flag answer for the caller's own team (docs/domain.md "Flag challenges"); a refusal is a FlagError (429 with Retry-After). */
const resource = apiResource("/challenges/{id}/flag", {
  POST: async ({ request, params, context, caller }) => {
    const challengeId = pathId(params.id);
    const { answer } = await readBody(request, FlagAnswerSchema);
    const verdict = await sendFlag({ actor: actorOf(caller, request), teamId: caller.teamId, challengeId, answer, begunAt: requestBegunAt(context) });
    return respond(FlagVerdictSchema, verdict);
  },
});
export const loader = resource.loader;
export const action = resource.action;
