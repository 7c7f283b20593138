import type { LoaderFunctionArgs } from "@remix-run/node";
import { requirePage } from "~/glue/auth.server";
import { storedBodyResponse } from "~/glue/stored-body.server";
import { parseRowId } from "~/modules/ids";
import { messages } from "~/modules/messages";
import { namesShownTo } from "~/modules/judging/blind.server";
import { inlineFileHeaders, openInlineSubmissionFile } from "~/modules/submissions/inline-file.server";

/** A submission's image or PDF shown in the judge's page (own team, judges, admins); anything else is download-only. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const id = parseRowId(params.id);
  const version = new URL(request.url).searchParams.get("version");
  const versionId = version === null ? undefined : parseRowId(version);
  const file = id && versionId !== null ? await openInlineSubmissionFile(id, user, versionId) : { found: false as const };
  // Another team's file answers like a missing one: its existence is not theirs to learn.
  if (!file.found) throw new Response("Not found", { status: 404 });
  if (!file.inline) throw new Response(messages.errors.notInline, { status: 415 });
  // A judge while judging is blind is not told the file's name (app/modules/judging/blind.server.ts).
  const name = (await namesShownTo(user)).fileName(file.name);
  return storedBodyResponse(request, file.body, { headers: inlineFileHeaders({ ...file, name }) });
}
