import { RejudgedSchema } from "~/modules/api/schemas";
import { messages } from "~/modules/messages";
import { actorOf } from "~/glue/actor.server";
import { rejudge } from "~/glue/code.server";
import { apiResource, pathId, readFields, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
/** The dashboard code page's rejudge (app/glue/code.server.ts): one judged run (`run`) or every judged run of the challenge. */
const resource = apiResource("/challenges/{id}/rejudge", {
  POST: async ({ request, params, caller }) => {
    const challengeId = pathId(params.id);
    const { run } = await readFields(request);
    const runs = await rejudge(actorOf(caller, request), challengeId, run === undefined ? "" : String(run));
    return respond(RejudgedSchema, { runs, message: messages.code.rejudged(runs) });
  },
});
export const loader = resource.loader;
export const action = resource.action;
