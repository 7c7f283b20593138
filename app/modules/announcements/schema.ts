import { z } from "zod";
import { text } from "../form-fields.ts";

export const AnnouncementSchema = z.object({
  title: text({ error: "Title is required" }).trim().min(1, "Title is required").max(200),
  content: text({ error: "Content is required" }).trim().min(1, "Content is required").max(5000),
  // The Arabic beside the English, optional (docs/domain.md "Event content in two languages"): empty is none.
  titleAr: text().trim().max(200).optional(),
  contentAr: text().trim().max(5000).optional(),
});
