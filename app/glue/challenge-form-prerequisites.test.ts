import { parseWithZod } from "@conform-to/zod/v4";
import { expect, it } from "vitest";
import { ChallengeFormSchema } from "../modules/challenges/schema.ts";

it("reads one or several prerequisites from the form's multiple select", () => {
  const base = { title: "t", description: "d", points: "100", category: "CS" };
  const one = new FormData();
  for (const [k, v] of Object.entries(base)) one.set(k, v);
  one.append("prerequisites", "4");
  const two = new FormData();
  for (const [k, v] of Object.entries(base)) two.set(k, v);
  two.append("prerequisites", "4");
  two.append("prerequisites", "9");
  const none = new FormData();
  for (const [k, v] of Object.entries(base)) none.set(k, v);
  const values = [one, two, none].map((form) => {
    const parsed = parseWithZod(form, { schema: ChallengeFormSchema });
    return parsed.status === "success" ? parsed.value.prerequisites : parsed.error;
  });
  expect(values).toEqual([[4], [4, 9], undefined]);
});
