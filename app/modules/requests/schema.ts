import { z } from "zod";
import { text } from "../form-fields.ts";

export const RequestSchema = z.object({
  message: text({ error: "This field is required" }).trim().min(1, "This field is required").max(2000),
});
