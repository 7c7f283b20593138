import { MeSchema, meOf } from "~/modules/api/schemas";
import { requireApiUser } from "~/utils/api-auth.server";
import { apiResource, respond } from "~/utils/api.server";

const resource = apiResource({
  GET: async ({ request }) => respond(MeSchema, meOf(await requireApiUser(request))),
});
export const loader = resource.loader;
export const action = resource.action;
