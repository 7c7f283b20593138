import { z } from "zod";
import { RequestOutSchema } from "~/modules/api/schemas";
import { createRequest, listRequests } from "~/modules/requests/requests.server";
import { RequestSchema } from "~/modules/requests/schema";
import { apiResource, readBody, respond } from "~/glue/api.server";

const resource = apiResource("/needs", {
  GET: async () => {
    return respond(z.array(RequestOutSchema), await listRequests("needs"));
  },
  POST: async ({ request, caller: user }) => {
    const { message } = await readBody(request, RequestSchema);
    const sent = await createRequest("needs", message, { userId: user.id, userName: user.name, teamId: user.teamId, teamName: user.teamName });
    return respond(RequestOutSchema, sent, { status: 201 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
