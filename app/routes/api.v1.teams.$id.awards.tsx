import { ApiError } from "~/modules/api/errors";
import { AwardOutSchema } from "~/modules/api/schemas";
import { teamAwards } from "~/modules/awards/awards.server";
import { messages } from "~/modules/messages";
import { getTeam } from "~/modules/teams/teams.server";
import { apiResource, pathId, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403; a participant only for their own team) before the handler runs
// (app/glue/api.server.ts, app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a
// visitor and as each role.
const resource = apiResource("/teams/{id}/awards", {
  GET: async ({ params }) => {
    const teamId = pathId(params.id);
    if (!(await getTeam(teamId))) throw new ApiError("not_found", messages.dashboard.teamNotFound);
    const awards = await teamAwards(teamId);
    return respond(
      AwardOutSchema.array(),
      awards.map((award) => ({ ...award, createdAt: award.createdAt.toISOString() })),
    );
  },
});
export const loader = resource.loader;
export const action = resource.action;
