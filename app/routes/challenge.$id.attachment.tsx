import type { LoaderFunctionArgs } from "@remix-run/node";
import { findDownloadableAttachment } from "~/modules/submissions/submit.server";
import { requirePage } from "~/glue/auth.server";
import { fileDownloadRedirect } from "~/glue/submission-download.server";
import { parseRowId } from "~/modules/ids";

/** A challenge's requirement file, for any signed-in user who may see the challenge. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const id = parseRowId(params.id);
  const file = id ? await findDownloadableAttachment(id, user) : null;
  if (!file) throw new Response("Not found", { status: 404 });
  return fileDownloadRedirect(file);
}
