import { getScoreboard } from "~/modules/standings/scoreboard.server";
import { requireApiUser } from "~/utils/api-auth.server";
import { apiResource } from "~/utils/api.server";
import { jsonWithEtag } from "~/utils/http-cache.server";

/**
 * The standings snapshot (Redis only, never computed per request), as /scoreboard shows it to the
 * caller's role. Big screens poll it: an unchanged board costs a 304 and no body.
 */
const resource = apiResource({
  GET: async ({ request }) => {
    const user = await requireApiUser(request);
    const board = await getScoreboard({ id: user.id, role: user.role, teamId: user.teamId });
    // private: it depends on the caller (frozen or live, own team); no-cache: revalidate every time.
    return jsonWithEtag(request, board, { "Cache-Control": "private, no-cache", Vary: "Authorization, Cookie" });
  },
});
export const loader = resource.loader;
export const action = resource.action;
