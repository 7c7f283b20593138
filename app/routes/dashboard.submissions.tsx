import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SubmissionsScreen } from "~/components/dashboard/submissions-screen";
import { messages } from "~/modules/messages";
import { ScoreFormSchema } from "~/modules/scoring/score-input";
import { scoreSubmission } from "~/modules/scoring/scoring.server";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import { listSubmissionsPage, submissionListOptions } from "~/modules/submissions/list.server";
import { readSubmissionListQuery } from "~/modules/submissions/schema";
import { namesShownTo } from "~/modules/judging/blind.server";
import styles from "~/styles/dashboard.css";
import { actorOf } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { formFailure } from "~/glue/failures.server";
import { redirectWithToast } from "~/glue/toast.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export async function loader({ request }: LoaderFunctionArgs) {
  const judge = await requirePage(request);
  const query = readSubmissionListQuery(new URL(request.url).searchParams);
  // Blind judging: a judge sees no team, member or file name, nor their order (the pages are cut in submission order).
  const names = await namesShownTo(judge);
  const options = { ...submissionListOptions(query, judge.id), orderById: names.ordersById(query.sort) };
  const [{ rows: listed, page: pages }, timeZone] = await Promise.all([listSubmissionsPage(options, query.page), getEventTimeZone()]);
  const rows = names.list(listed, query.sort);
  return {
    judgeId: judge.id,
    timeZone,
    query,
    pages,
    rows: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const judge = await requirePage(request);
  const submission = parseWithZod(await request.formData(), { schema: ScoreFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    await scoreSubmission({ ...submission.value, judge: actorOf(judge, request) });
  } catch (error) {
    // The row shows the message beside its score input: on the score, or on the row itself (a fault too).
    const failed = formFailure(submission, error, { log: "scoring failed", fallback: messages.errors.server, fieldOf: (refusal) => refusal?.field ?? "submissionId" });
    return data(failed.result, failed.init);
  }
  const url = new URL(request.url);
  return redirectWithToast(`${url.pathname}${url.search}`, { type: "success", title: messages.scoring.saved });
}

export default function Submissions() {
  return <SubmissionsScreen {...useLoaderData<typeof loader>()} />;
}
