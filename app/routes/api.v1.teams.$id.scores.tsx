import { ApiError } from "~/modules/api/errors";
import { CategoryScoresSchema } from "~/modules/api/schemas";
import { messages } from "~/modules/messages";
import { teamCategoryScores } from "~/modules/scoring/category-scores.server";
import { getTeam } from "~/modules/teams/teams.server";
import { apiResource, pathId, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/teams/{id}/scores", {
  GET: async ({ params, caller }) => {
    const teamId = pathId(params.id);
    if (!(await getTeam(teamId))) throw new ApiError("not_found", messages.dashboard.teamNotFound);
    return respond(CategoryScoresSchema, await teamCategoryScores(teamId, caller));
  },
});
export const loader = resource.loader;
export const action = resource.action;
