import type { ActionFunctionArgs } from "@remix-run/node";
import { messages } from "~/modules/messages";
import { submissionMaxBytes } from "~/modules/submissions/submit.server";
import { handleSubmissionPost } from "~/glue/submission-upload.server";
import { requirePage } from "~/glue/auth.server";
import { requestBegunAt } from "~/glue/request-time.server";
import { parseRowId } from "~/modules/ids";

/**
 * The enhanced submission form posts here with XMLHttpRequest (for upload progress) and gets JSON;
 * the same rules run as in /submition/:id's own action, which serves the form without JavaScript.
 * Plain Responses: from a resource route Remix sends the body of `data()` with status 200, which hid
 * every refusal's status (413, 403, 503) from the caller (found by the S3 outage drill).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requirePage(request);
  const challengeId = parseRowId(params.id);
  if (!challengeId) return Response.json({ ok: false, message: messages.participant.challengeNotFound }, { status: 404 });
  const outcome = await handleSubmissionPost(request, {
    caller: user,
    challengeId,
    maxBytes: submissionMaxBytes(),
    begunAt: requestBegunAt(context),
  });
  if (!outcome.ok) return Response.json({ ok: false, message: outcome.message }, { status: outcome.status });
  return Response.json({ ok: true, created: outcome.created, message: outcome.created ? messages.participant.created : messages.participant.updated });
}

export async function loader() {
  // Public route: nothing to read here; the form lives at /submition/:id.
  throw new Response("Not found", { status: 404 });
}
