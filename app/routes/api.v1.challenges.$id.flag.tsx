import { answerFlagCall } from "~/glue/flag-answer-api.server";
import { clientIp } from "~/glue/request.server";
import { requestBegunAt } from "~/glue/request-time.server";
import { apiResource, pathId, readFields, respondWith } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403: participants only) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
/**
 * A flag answer for the caller's own team (docs/domain.md "Flag challenges"); a refusal is a FlagError (429 with
 * Retry-After). The plain call (`POST` of exactly this path, a JSON body of a declared length) is answered ahead
 * of Express by server.ts with the same function (app/glue/flag-answer-api.server.ts, decision 039); this module
 * answers every other spelling and encoding.
 */
const resource = apiResource("/challenges/{id}/flag", {
  POST: async ({ request, params, context, caller }) => {
    const challengeId = pathId(params.id);
    const fields = await readFields(request);
    return respondWith(await answerFlagCall({ caller, ip: clientIp(request), challengeId, fields, begunAt: requestBegunAt(context) }));
  },
});
export const loader = resource.loader;
export const action = resource.action;
