import { describe, expect, it } from "vitest";
import { acceptedLanguage, cookieLanguage, languageCookie, languageOf } from "./language.server";

const request = (headers: Record<string, string>) => new Request("http://localhost/gates", { headers });

describe("the request's language", () => {
  it("is the cookie's when it names one of ours", () => {
    expect(cookieLanguage("a=1; lang=ar; b=2")).toBe("ar");
    expect(cookieLanguage("lang=en")).toBe("en");
    expect(cookieLanguage("lang=fr")).toBeNull();
    expect(cookieLanguage("xlang=ar")).toBeNull();
    expect(languageOf(request({ Cookie: "lang=ar", "Accept-Language": "en-US,en;q=0.9" }))).toBe("ar");
    expect(languageOf(request({ Cookie: "lang=en", "Accept-Language": "ar-DZ" }))).toBe("en");
  });

  it("else follows Accept-Language with its weights, regional variants included", () => {
    expect(acceptedLanguage("ar-DZ,ar;q=0.9,fr;q=0.8")).toBe("ar");
    expect(acceptedLanguage("fr-FR,fr;q=0.9,ar;q=0.5,en;q=0.4")).toBe("ar");
    expect(acceptedLanguage("fr-FR,en;q=0.6,ar;q=0.5")).toBe("en");
    expect(acceptedLanguage("en-US,en;q=0.9")).toBe("en");
    expect(acceptedLanguage("fr, ar-DZ;q=0.5")).toBe("ar");
    expect(acceptedLanguage("AR")).toBe("ar");
    expect(acceptedLanguage("arn, fr")).toBe("en");
  });

  it("is English without either", () => {
    expect(languageOf(request({}))).toBe("en");
    expect(languageOf(request({ "Accept-Language": "de, fr" }))).toBe("en");
  });

  it("is remembered for a year, for the server only", () => {
    expect(languageCookie("ar", false)).toBe("lang=ar; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly");
    expect(languageCookie("en", true)).toContain("; Secure");
  });
});
