import type { z } from "zod";

/** What is wrong with one row of an imported file. */
export interface ImportIssue {
  row: number;
  messages: string[];
}

export interface CheckedRows<T> {
  valid: Array<{ row: number; value: T }>;
  issues: ImportIssue[];
}

/** Each row through the screen's schema; an issue names the column, then the form's own message. */
export function validateRows<S extends z.ZodType>(rows: Array<{ row: number; fields: unknown }>, schema: S): CheckedRows<z.output<S>> {
  const valid: CheckedRows<z.output<S>>["valid"] = [];
  const issues: ImportIssue[] = [];
  for (const { row, fields } of rows) {
    const result = schema.safeParse(fields);
    if (result.success) valid.push({ row, value: result.data });
    else issues.push({ row, messages: result.error.issues.map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message)) });
  }
  return { valid, issues };
}

/** Adds a message to a row's issue (rows stay in file order). */
export function addIssue(issues: ImportIssue[], row: number, message: string) {
  const existing = issues.find((issue) => issue.row === row);
  if (existing) existing.messages.push(message);
  else issues.push({ row, messages: [message] });
  issues.sort((a, b) => a.row - b.row);
}
