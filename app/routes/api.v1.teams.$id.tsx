import { TeamRefSchema } from "~/modules/api/schemas";
import { TeamNameSchema } from "~/modules/teams/schema";
import { deleteTeam, renameTeam } from "~/modules/teams/teams.server";
import { requireApiRole } from "~/utils/api-auth.server";
import { apiResource, noContent, pathId, readBody, respond } from "~/utils/api.server";

const resource = apiResource({
  PATCH: async ({ request, params }) => {
    await requireApiRole(request, "admin");
    const id = pathId(params.id);
    const { name } = await readBody(request, TeamNameSchema);
    return respond(TeamRefSchema, await renameTeam(id, name));
  },
  DELETE: async ({ request, params }) => {
    await requireApiRole(request, "admin");
    await deleteTeam(pathId(params.id));
    return noContent();
  },
});
export const loader = resource.loader;
export const action = resource.action;
