import { z } from "zod";
import "../form-errors.ts";

export const AnnouncementSchema = z.object({
  title: z.string({ error: "Title is required" }).trim().min(1, "Title is required").max(200),
  content: z.string({ error: "Content is required" }).trim().min(1, "Content is required").max(5000),
});
