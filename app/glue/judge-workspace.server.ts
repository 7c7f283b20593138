/**
 * The judge workspace's form posts (/dashboard/judge, docs/decisions/019-judge-workspace.md): a claim's
 * renewal while the judge works (with N judges per submission), and a score, read with conform. A refused
 * score comes back with what was typed; a saved one opens the next submission of the queue after it (the
 * filters stay), the score confirmed on the page itself (no JavaScript needed) and as a toast.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { renewClaim } from "../modules/judging/claims.server.ts";
import { filtersOf, readWorkspaceQuery, RenewClaimSchema, workspaceHref, WorkspaceScoreSchema } from "../modules/judging/schema.ts";
import { messages } from "../modules/messages.ts";
import { scoreSubmission } from "../modules/scoring/scoring.server.ts";
import { actorOf } from "./actor.server.ts";
import type { Caller } from "./caller.server.ts";
import { formFailure } from "./failures.server.ts";
import { badRequest } from "./responses.server.ts";
import { redirectWithToast } from "./toast.server.ts";

export async function handleWorkspaceAction(request: Request, judge: Caller) {
  const formData = await request.formData();
  if (formData.get("intent") === "renew") {
    const renewal = RenewClaimSchema.safeParse(Object.fromEntries(formData));
    if (!renewal.success) throw badRequest();
    return { renewed: await renewClaim(judge.id, renewal.data.submissionId) };
  }
  const form = parseWithZod(formData, { schema: WorkspaceScoreSchema });
  if (form.status !== "success") return data(form.reply(), { status: 400 });
  const { revision, ...score } = form.value;
  try {
    // The score ends the judge's claim on it (scoreSubmission).
    await scoreSubmission({ ...score, judge: actorOf(judge, request), seenRevision: new Date(revision) });
  } catch (error) {
    const failed = formFailure(form, error, { log: "scoring failed", fallback: messages.errors.server, fieldOf: (refusal) => refusal?.field });
    return data(failed.result, failed.init);
  }
  const query = readWorkspaceQuery(new URL(request.url).searchParams);
  return redirectWithToast(workspaceHref({ ...filtersOf(query), after: score.submissionId, saved: score.submissionId }), { type: "success", title: messages.scoring.saved });
}
