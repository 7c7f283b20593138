import { ApiError } from "~/modules/api/errors";
import { CategoryScoresSchema } from "~/modules/api/schemas";
import { messages } from "~/modules/messages";
import { teamCategoryScores } from "~/modules/scoring/category-scores.server";
import { getTeam } from "~/modules/teams/teams.server";
import { requireTeamReader } from "~/utils/api-auth.server";
import { apiResource, pathId, respond } from "~/utils/api.server";

const resource = apiResource({
  GET: async ({ request, params }) => {
    const teamId = pathId(params.id);
    await requireTeamReader(request, teamId);
    if (!(await getTeam(teamId))) throw new ApiError("not_found", messages.dashboard.teamNotFound);
    return respond(CategoryScoresSchema, await teamCategoryScores(teamId));
  },
});
export const loader = resource.loader;
export const action = resource.action;
