/**
 * Values from JSON (an API body, an imported file) shaped like the form data the zod schemas were
 * written for: numbers and booleans become text, and null or "" means "not given", as conform treats
 * an empty input. So `{"points": 100}` and `points=100` validate alike.
 */
export function asFormValues(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values)
      .filter(([, value]) => value !== null && value !== undefined && value !== "")
      .map(([key, value]) => [key, typeof value === "number" || typeof value === "boolean" ? String(value) : value]),
  );
}
