import { ScoreResultSchema, withScore } from "~/modules/api/schemas";
import { ScoreFormSchema } from "~/modules/scoring/score-input";
import { namesShownTo } from "~/modules/judging/blind.server";
import { scoreSubmission } from "~/modules/scoring/scoring.server";
import { actorOf } from "~/glue/actor.server";
import { apiResource, pathId, readBody, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
/** The caller scores as themselves: the judge is never taken from the body (docs/domain.md). */
const resource = apiResource("/submissions/{id}/score", {
  PUT: async ({ request, params, caller: judge }) => {
    const submissionId = pathId(params.id);
    const input = await readBody(request, ScoreFormSchema.omit({ submissionId: true }));
    const [scored, names] = await Promise.all([scoreSubmission({ ...input, submissionId, judge: actorOf(judge, request) }), namesShownTo(judge)]);
    return respond(ScoreResultSchema, { ...withScore(scored), teamId: names.teamId(scored.teamId) });
  },
});
export const loader = resource.loader;
export const action = resource.action;
