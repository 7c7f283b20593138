/**
 * How a program's output is compared with a test's expected output (docs/domain.md "Code challenges").
 *
 * - exact: line by line, each line's trailing white space and the trailing empty lines ignored;
 * - numeric: token by token (any white space between), numbers equal within an absolute or a relative
 *   tolerance, other tokens exactly;
 * - checker: the admin's own program decides (./checker.server.ts, run by ./judge.server.ts in the sandbox).
 */
export const COMPARATORS = ["exact", "numeric", "checker"] as const;
export type Comparator = (typeof COMPARATORS)[number];

export const DEFAULT_TOLERANCE = 1e-6;

function lines(text: string): string[] {
  const all = text.replace(/\r\n/g, "\n").split("\n").map((line) => line.replace(/[ \t\r\f\v]+$/, ""));
  while (all.length > 0 && all.at(-1) === "") all.pop();
  return all;
}

export function sameExact(output: string, expected: string): boolean {
  const got = lines(output);
  const want = lines(expected);
  return got.length === want.length && got.every((line, index) => line === want[index]);
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

export function sameNumeric(output: string, expected: string, tolerance = DEFAULT_TOLERANCE): boolean {
  const got = output.split(/\s+/).filter(Boolean);
  const want = expected.split(/\s+/).filter(Boolean);
  if (got.length !== want.length) return false;
  return want.every((token, index) => {
    const other = got[index]!;
    if (!NUMBER.test(token)) return token === other;
    if (!NUMBER.test(other)) return false;
    const a = Number(other);
    const b = Number(token);
    return Math.abs(a - b) <= tolerance || Math.abs(a - b) <= tolerance * Math.abs(b);
  });
}

export function outputMatches(comparator: Exclude<Comparator, "checker">, output: string, expected: string, tolerance = DEFAULT_TOLERANCE): boolean {
  return comparator === "numeric" ? sameNumeric(output, expected, tolerance) : sameExact(output, expected);
}
