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
