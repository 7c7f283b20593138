import { z } from "zod";
import { SubmissionOutSchema, withScore } from "~/modules/api/schemas";
import { listSubmissionsSorted, submissionListOptions } from "~/modules/submissions/list.server";
import { readSubmissionListQuery } from "~/modules/submissions/schema";
import { namesShownTo } from "~/modules/judging/blind.server";
import { apiResource, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
/** The judging table: same sort and filters as /dashboard/submissions (?sort=&dir=&gate=&category=&status=&mine=unscored). */
const resource = apiResource("/submissions", {
  GET: async ({ request, caller: judge }) => {
    const query = readSubmissionListQuery(new URL(request.url).searchParams);
    const [rows, names] = await Promise.all([listSubmissionsSorted(submissionListOptions(query, judge.id)), namesShownTo(judge)]);
    return respond(z.array(SubmissionOutSchema), names.apiList(rows, query.sort).map(withScore));
  },
});
export const loader = resource.loader;
export const action = resource.action;
