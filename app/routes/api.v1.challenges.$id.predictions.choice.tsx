import { MessageOutSchema } from "~/modules/api/schemas";
import { ChoiceSchema } from "~/modules/predictions/schema";
import { choose } from "~/glue/predictions.server";
import { apiResource, pathId, readBody, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
/** The file that counts for the caller's team, chosen as on /predictions/:id (app/glue/predictions.server.ts). */
const resource = apiResource("/challenges/{id}/predictions/choice", {
  PUT: async ({ request, params, caller }) => {
    const challengeId = pathId(params.id);
    const choice = await readBody(request, ChoiceSchema);
    return respond(MessageOutSchema, { message: await choose(caller, challengeId, choice) });
  },
});
export const loader = resource.loader;
export const action = resource.action;
