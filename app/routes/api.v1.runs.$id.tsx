import { ApiError } from "~/modules/api/errors";
import { CodeRunOutSchema, runOut } from "~/modules/api/schemas";
import { messages } from "~/modules/messages";
import { runFor } from "~/modules/code/runs.server";
import { apiResource, pathId, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
/** One run (docs/domain.md "Code challenges"): a participant's own team's only (another team's is a 404, like a missing one). */
const resource = apiResource("/runs/{id}", {
  GET: async ({ params, caller }) => {
    const run = await runFor(pathId(params.id), caller);
    if (!run) throw new ApiError("not_found", messages.code.runNotFound);
    return respond(CodeRunOutSchema, runOut(run, run.challengeId));
  },
});
export const loader = resource.loader;
export const action = resource.action;
