import { redirect } from "@remix-run/node";
import { ApiError } from "~/modules/api/errors";
import { messages } from "~/modules/messages";
import { findDownloadableAttachment } from "~/modules/submissions/submit.server";
import { requireApiUser } from "~/utils/api-auth.server";
import { apiResource, pathId } from "~/utils/api.server";
import { presignDownload } from "~/utils/s3.server";

const resource = apiResource({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request);
    const file = await findDownloadableAttachment(pathId(params.id), user);
    if (!file) throw new ApiError("not_found", messages.dashboard.noAttachment);
    return redirect(await presignDownload(file.key, file.name), { headers: { "Cache-Control": "no-store" } });
  },
});
export const loader = resource.loader;
export const action = resource.action;
