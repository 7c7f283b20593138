import { z } from "zod";
import { GateOutSchema } from "~/modules/api/schemas";
import { listGates } from "~/modules/gates/gates.server";
import { apiResource, respond } from "~/glue/api.server";

const resource = apiResource("/gates", {
  GET: async () => {
    return respond(z.array(GateOutSchema), await listGates());
  },
});
export const loader = resource.loader;
export const action = resource.action;
