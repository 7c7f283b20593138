import type { LoaderFunctionArgs } from "@remix-run/node";
import { requirePage } from "~/glue/auth.server";
import { judgeBacklogTotal } from "~/modules/judging/queue.server";

/**
 * What is left for the caller to score, as JSON: the dashboard sidebar's count, which the browser re-reads
 * with a plain fetch on judging events (not a Remix fetcher: its error would take the whole dashboard to
 * its error page).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const judge = await requirePage(request);
  return Response.json({ backlog: await judgeBacklogTotal(judge.id) }, { headers: { "Cache-Control": "private, no-store" } });
}
