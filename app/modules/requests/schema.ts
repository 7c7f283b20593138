import { z } from "zod";
import "../form-errors.ts";

export const RequestSchema = z.object({
  message: z.string({ error: "This field is required" }).trim().min(1, "This field is required").max(2000),
});
