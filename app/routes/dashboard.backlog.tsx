import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { requirePage } from "~/glue/auth.server";
import { judgeBacklogTotal } from "~/modules/judging/queue.server";

/** What is left for the caller to score: the dashboard sidebar's count, re-read live on judging events. */
export async function loader({ request }: LoaderFunctionArgs) {
  const judge = await requirePage(request);
  return data({ backlog: await judgeBacklogTotal(judge.id) }, { headers: { "Cache-Control": "private, no-store" } });
}
