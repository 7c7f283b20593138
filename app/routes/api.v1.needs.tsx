import { z } from "zod";
import { RequestOutSchema } from "~/modules/api/schemas";
import { createRequest, listRequests } from "~/modules/requests/requests.server";
import { RequestSchema } from "~/modules/requests/schema";
import { requireApiRole, requireApiUser } from "~/utils/api-auth.server";
import { apiResource, readBody, respond } from "~/utils/api.server";

const resource = apiResource({
  GET: async ({ request }) => {
    await requireApiRole(request, "admin");
    return respond(z.array(RequestOutSchema), await listRequests("needs"));
  },
  POST: async ({ request }) => {
    const user = await requireApiUser(request);
    const { message } = await readBody(request, RequestSchema);
    const sent = await createRequest("needs", message, { userId: user.id, userName: user.name, teamId: user.teamId, teamName: user.teamName });
    return respond(RequestOutSchema, sent, { status: 201 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
