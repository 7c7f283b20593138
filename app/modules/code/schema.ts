/**
 * The API's words for a team's program and a rejudge (docs/API.md), for the OpenAPI document: the checks themselves are
 * the code page's form's (app/glue/code.server.ts), the one reader of both.
 */
import { z } from "zod";
import { rowId } from "../ids.ts";

export const ProgramSchema = z.object({
  language: z.string().meta({ description: "One of the challenge's languages (`languages` of GET /challenges/{id}/runs): c, cpp, python3, java, javascript" }),
  source: z.string().optional().meta({ description: "The program's text: 64 KB at most (UTF-8)" }),
});

export const RejudgeSchema = z.object({ run: rowId().optional().meta({ description: "One judged run's id; left out: every judged run of the challenge" }) });

/**
 * The staff's list of a challenge's runs (/dashboard/code/:id and GET /challenges/{id}/runs for admins and judges): a
 * page of it, newest first, and whether only the runs failing on the platform's side are listed. Anything else reads
 * as not asked for.
 */
export const RunListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).optional().catch(undefined).meta({ description: "Admins and judges: the page of the list, 25 runs a page (1, the newest, when left out)" }),
  failing: z.literal("1").optional().catch(undefined).meta({ description: "Admins and judges: `1` lists only the runs failing on the platform's side (judge errors not judged since)" }),
});

export function readRunListQuery(searchParams: URLSearchParams): { page?: number; failing: boolean } {
  const query = RunListQuerySchema.parse(Object.fromEntries([...searchParams].filter(([, value]) => value !== "")));
  return { page: query.page, failing: query.failing === "1" };
}
