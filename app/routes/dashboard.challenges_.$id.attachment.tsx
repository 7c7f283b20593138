import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { challengeAttachment } from "~/modules/challenges/challenges.server";
import { messages } from "~/modules/messages";
import { requirePage } from "~/glue/auth.server";
import { presignDownload } from "~/infrastructure/s3.server";
import { parseRowId } from "~/modules/ids";

/** An admin downloads a challenge's attachment: checked here, then a short-lived presigned URL. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePage(request);
  const id = parseRowId(params.id);
  const file = id ? await challengeAttachment(id) : null;
  if (!file) throw new Response(messages.dashboard.noAttachment, { status: 404 });
  return redirect(await presignDownload(file.key, file.name), { headers: { "Cache-Control": "no-store" } });
}
