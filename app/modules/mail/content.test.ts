import { describe, expect, it } from "vitest";
import { mailContent } from "./content.ts";
import { emailKey, normaliseEmail } from "./addresses.ts";
import { ForgotPasswordSchema } from "./schema.ts";

const base = { eventName: "Gatekeeper Cup", userName: "amina.benali", link: "https://gates.example.org/set-password?token=abc.def", validHours: 72, validMinutes: 30 };

describe("a mail's content", () => {
  it("says the event, the login name, the link and how long it works, in English and in Arabic", () => {
    const en = mailContent({ ...base, kind: "set_password", language: "en" });
    expect(en.subject).toBe("Gatekeeper Cup: choose your password");
    expect(en.text).toContain("Your login name is amina.benali");
    expect(en.text).toContain("Choose your password: https://gates.example.org/set-password?token=abc.def");
    expect(en.text).toContain("The link works once, for 72 hours.");
    const ar = mailContent({ ...base, kind: "password_reset", language: "ar" });
    expect(ar.subject).toBe("Gatekeeper Cup: اختر كلمة مرور جديدة");
    expect(ar.text).toContain("لمدة 30 دقيقة");
    expect(ar.html).toContain('<html lang="ar" dir="rtl">');
  });

  it("asks a participant to confirm the address, naming the provider, while passwords are off for participants", () => {
    const en = mailContent({ ...base, kind: "confirm_address", language: "en", provider: "University <account>" });
    expect(en.subject).toBe("Gatekeeper Cup: confirm your address");
    expect(en.text).toContain("Participants sign in with University <account>: confirm with the link below");
    expect(en.text).toContain("Confirm my address: https://gates.example.org/set-password?token=abc.def");
    expect(en.text.replace(base.link, "")).not.toMatch(/password/i);
    expect(en.html).toContain("University &#60;account&#62;");
    const ar = mailContent({ ...base, kind: "confirm_address", language: "ar", provider: "حساب الجامعة" });
    expect(ar.subject).toBe("Gatekeeper Cup: أكّد عنوان بريدك");
    expect(ar.text).toContain("عبر حساب الجامعة");
  });

  it("escapes what people typed in the HTML and keeps line breaks out of the subject", () => {
    const mail = mailContent({ ...base, kind: "set_password", language: "en", eventName: "Cup\r\nBcc: thief@example.org", userName: "<img src=x onerror=alert(1)>" });
    expect(mail.subject).toBe("Cup Bcc: thief@example.org: choose your password");
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html).not.toContain("<img");
    expect(mail.html).toContain("&#60;img src=x onerror=alert(1)&#62;");
  });
});

describe("addresses", () => {
  it("are kept with the domain in lower case and compared without regard to case", () => {
    expect(normaliseEmail("  Amina.B@Example.ORG ")).toBe("Amina.B@example.org");
    expect(emailKey("Amina.B@Example.ORG")).toBe("amina.b@example.org");
  });

  it("refuse a line break, a second address and anything past 254 characters, with a sentence", () => {
    const refused = (email: string) => ForgotPasswordSchema.safeParse({ email }).error?.issues.map((issue) => issue.message);
    expect(refused("a@example.org\r\nBcc: thief@example.org")).toEqual(["Enter a valid email address"]);
    expect(refused("a@example.org, thief@example.org")).toEqual(["Enter a valid email address"]);
    expect(refused(`${"a".repeat(10_000)}@example.org`)).toEqual(["Too long (254 characters at most)"]);
    expect(refused("")).toEqual(["Enter your email address"]);
    expect(ForgotPasswordSchema.parse({ email: "A@EXAMPLE.org" }).email).toBe("A@example.org");
  });
});
