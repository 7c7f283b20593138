/** Random and hostile form input for the property tests (fast-check arbitraries). */
import fc from "fast-check";

/** What people type, paste, or forge. */
export const hostileValue = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 60 }),
  // Control characters inside otherwise ordinary text (Postgres refuses NUL in text).
  fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom("\u0000", "\u0007", "\u001b[31m", "\u007f"), fc.string({ maxLength: 8 })).map((parts) => parts.join("")),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\u202e\u200f",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "../../etc/passwd",
    "NaN",
    "Infinity",
    "-1",
    "0",
    "1e309",
    // Ids just past Postgres' integer and far past it: a 4xx, never "value out of range" as a 500.
    "2147483648",
    "-2147483649",
    "99999999999",
    "0x7fffffff",
    "9".repeat(400),
    "x".repeat(30_000),
    "👩🏽‍💻".repeat(300),
    "مرحبا بالعالم",
    "__proto__",
    "javascript:alert(1)",
    "2025-02-30T25:61",
    "true",
    "on",
  ),
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.double().map(String),
);

/** A form body: the schema's own field names (some repeated, some missing) plus strangers. */
export function hostileForm(fieldNames: readonly string[]) {
  const key = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...(fieldNames.length ? fieldNames : ["x"])) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
  return fc.array(fc.tuple(key, hostileValue), { maxLength: 14 }).map((entries) => {
    const form = new FormData();
    for (const [name, value] of entries) form.append(name, value);
    return form;
  });
}
