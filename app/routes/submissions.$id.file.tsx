import type { LoaderFunctionArgs } from "@remix-run/node";
import { findDownloadableSubmissionFile } from "~/modules/submissions/submit.server";
import { requirePage } from "~/glue/auth.server";
import { submissionFileResponse } from "~/glue/submission-download.server";
import { parseRowId } from "~/modules/ids";

/** A submission's file (or an earlier version's): own team, judges and admins; then a short-lived presigned URL (app/glue/submission-download.server.ts). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const id = parseRowId(params.id);
  // `?version=` downloads an earlier version's file (kept when the team replaced it).
  const version = new URL(request.url).searchParams.get("version");
  const versionId = version === null ? undefined : parseRowId(version);
  const file = id && versionId !== null ? await findDownloadableSubmissionFile(id, user, versionId) : null;
  // Another team's file answers like a missing one: its existence is not theirs to learn.
  if (!file) throw new Response("Not found", { status: 404 });
  return submissionFileResponse(request, file, user);
}
