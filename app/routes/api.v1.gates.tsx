import { z } from "zod";
import { GateOutSchema } from "~/modules/api/schemas";
import { listGates } from "~/modules/gates/gates.server";
import { requireApiUser } from "~/utils/api-auth.server";
import { apiResource, respond } from "~/utils/api.server";

const resource = apiResource({
  GET: async ({ request }) => {
    await requireApiUser(request);
    return respond(z.array(GateOutSchema), await listGates());
  },
});
export const loader = resource.loader;
export const action = resource.action;
