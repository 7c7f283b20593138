/** The registration schema as the form and the action use it (through conform's FormData parsing). */
import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { messages } from "../../app/modules/messages.ts";
import { CreateAccountsSchema, DIGITS_INPUT_PATTERN, hasNonDigits, isMissing, LIMITS, RegistrationSchema } from "../../app/modules/registrations/schema.ts";

const m = messages.registration;

const valid = {
  name: "Amina",
  lastName: "Benali",
  email: "amina@example.com",
  phone: "0555123456",
  hasTeam: "yes",
  teamName: "Night Owls",
  nationalId: "109876543210",
  skill: "Machine learning",
  linkedin: "",
  portfolio: "",
  major: "",
  university: "",
  tshirtSize: "M",
  website: "",
};

function parse(over: Record<string, string | undefined> = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries({ ...valid, ...over })) if (value !== undefined) form.set(key, value);
  return parseWithZod(form, { schema: RegistrationSchema });
}

function errorsOf(over: Record<string, string | undefined>) {
  const result = parse(over);
  expect(result.status).toBe("error");
  return result.reply().error ?? {};
}

describe("registration schema", () => {
  it("accepts a complete registration and leaves empty optional fields undefined", () => {
    const result = parse();
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value).toMatchObject({ name: "Amina", hasTeam: "yes", tshirtSize: "M", phone: "0555123456" });
    expect(result.value.linkedin).toBeUndefined();
  });

  it.each(["name", "lastName", "email", "phone", "hasTeam", "nationalId", "skill", "tshirtSize"])(
    "refuses an empty %s with the original platform's message",
    (field) => {
      const errors = errorsOf({ [field]: "" });
      expect(errors[field]).toEqual([m.required]);
      expect(isMissing(errors[field] ?? undefined)).toBe(true);
    },
  );

  it("treats spaces only as empty", () => {
    expect(errorsOf({ name: "   " }).name).toEqual([m.required]);
  });

  it("keeps the optional fields optional", () => {
    expect(parse({ teamName: "", linkedin: undefined, portfolio: "", major: "", university: "" }).status).toBe("success");
  });

  it("takes digits only for phone and national ID, forgiving spaces and dashes", () => {
    expect(errorsOf({ phone: "+213555" }).phone).toEqual([m.digitsOnly]);
    expect(errorsOf({ phone: "05five" }).phone).toEqual([m.digitsOnly]);
    expect(errorsOf({ nationalId: "12.34" }).nationalId).toEqual([m.digitsOnly]);
    expect(errorsOf({ nationalId: "١٢٣" }).nationalId).toEqual([m.digitsOnly]);
    const ok = parse({ phone: "0555 12-34-56", nationalId: "1098 7654" });
    expect(ok.status).toBe("success");
    if (ok.status === "success") expect([ok.value.phone, ok.value.nationalId]).toEqual(["0555123456", "10987654"]);
    expect(isMissing(errorsOf({ phone: "+213" }).phone ?? undefined)).toBe(false);
  });

  it("refuses in the browser what the server refuses: the inputs' pattern and the as-you-type check agree with it", () => {
    // The browser reads a pattern as ^(?:pattern)$ with the v flag.
    const pattern = new RegExp(`^(?:${DIGITS_INPUT_PATTERN})$`, "v");
    for (const value of ["0555123456", "0555 12-34-56", "+213555", "05five", "12.34", "١٢٣", "0555\tabc"]) {
      const serverTakes = parse({ phone: value }).status === "success";
      expect(pattern.test(value), value).toBe(serverTakes);
      expect(hasNonDigits(value), value).toBe(!serverTakes);
    }
  });

  it("checks the email format", () => {
    expect(errorsOf({ email: "not-an-email" }).email).toEqual([m.email]);
    expect(errorsOf({ email: "a@b" }).email).toEqual([m.email]);
    expect(parse({ email: "  Amina.B+event@Example.dz  " }).status).toBe("success");
  });

  it("takes hasTeam yes or no only", () => {
    expect(errorsOf({ hasTeam: "maybe" }).hasTeam).toEqual([m.hasTeam]);
    expect(parse({ hasTeam: "no" }).status).toBe("success");
  });

  it.each(["S", "M", "L", "XL", "XXL"])("takes T-shirt size %s", (size) => {
    expect(parse({ tshirtSize: size }).status).toBe("success");
  });

  it.each(["XS", "xl", "XXXL", "m "])("refuses T-shirt size %j", (size) => {
    expect(errorsOf({ tshirtSize: size }).tshirtSize).toEqual([m.tshirtSize]);
  });

  it("limits every text's length", () => {
    const long = (n: number) => "x".repeat(n);
    expect(parse({ name: long(LIMITS.text) }).status).toBe("success");
    expect(errorsOf({ name: long(LIMITS.text + 1) }).name).toEqual([m.tooLong(LIMITS.text)]);
    for (const field of ["lastName", "skill", "teamName", "major", "university"]) {
      expect(errorsOf({ [field]: long(LIMITS.text + 1) })[field]).toEqual([m.tooLong(LIMITS.text)]);
    }
    for (const field of ["linkedin", "portfolio"]) {
      expect(errorsOf({ [field]: long(LIMITS.url + 1) })[field]).toEqual([m.tooLong(LIMITS.url)]);
    }
    expect(errorsOf({ phone: "1".repeat(LIMITS.phone + 1) }).phone).toEqual([m.tooLong(LIMITS.phone)]);
    expect(errorsOf({ nationalId: "1".repeat(LIMITS.nationalId + 1) }).nationalId).toEqual([m.tooLong(LIMITS.nationalId)]);
    expect(errorsOf({ email: `${long(LIMITS.email)}@example.com` }).email).toEqual([m.tooLong(LIMITS.email)]);
  });
});

describe("account selection schema", () => {
  const parseIds = (ids: string[]) => {
    const form = new FormData();
    for (const id of ids) form.append("ids", id);
    return parseWithZod(form, { schema: CreateAccountsSchema });
  };

  it("takes one or many ids", () => {
    const one = parseIds(["7"]);
    expect(one.status === "success" && one.value.ids).toEqual([7]);
    const many = parseIds(["7", "9"]);
    expect(many.status === "success" && many.value.ids).toEqual([7, 9]);
  });

  it("asks for a selection when there is none", () => {
    expect(parseIds([]).reply().error?.ids).toEqual([m.noneSelected]);
  });
});
