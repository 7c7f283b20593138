/**
 * Property: every form schema, fed random and hostile values the way a browser (or a script
 * posing as one) sends them, never throws and refuses with a clear message of ours, never a library's
 * default ("Invalid input: expected string…"). 1,000 cases per schema.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { AnnouncementSchema } from "../modules/announcements/schema";
import { AwardFormSchema, AwardRevokeSchema } from "../modules/awards/schema";
import { safeFileName } from "../modules/form-fields";
import { LoginSchema } from "../modules/auth/login-schema";
import { ChallengeFormSchema, ChallengeIdSchema } from "../modules/challenges/schema";
import { FlagAnswerSchema } from "../modules/flags/schema";
import { NotificationSchema } from "../modules/notifications/schema";
import { CreateAccountsSchema, RegistrationSchema } from "../modules/registrations/schema";
import { RequestSchema } from "../modules/requests/schema";
import { scoreInputSchema, ScoreFormSchema } from "../modules/scoring/score-input";
import { FinalSettingsSchema, GateSettingsSchema, MealAddSchema, MealRemoveSchema } from "../modules/settings/schema";
import { SubmissionFormSchema } from "../modules/submissions/schema";
import { TeamDeleteSchema, TeamFormSchema } from "../modules/teams/schema";
import { UserDeleteSchema, UserFormSchema } from "../modules/users/schema";
import { DashboardVideosSchema, WelcomeVideosSchema } from "../modules/videos/schema";
import { hostileForm, hostileValue } from "../../tests/support/hostile-input";

/** zod's own wording: a user must never see it. */
const LIBRARY_DEFAULT = /^(Invalid|Too (small|big)|Unrecognized|Expected|Required$)/;

// Forms people fill in: every refusal must be one of our sentences.
const forms: Record<string, z.ZodObject> = {
  LoginSchema,
  TeamFormSchema,
  UserFormSchema,
  ChallengeFormSchema,
  AnnouncementSchema,
  NotificationSchema,
  RequestSchema,
  RegistrationSchema,
  SubmissionFormSchema,
  ScoreFormSchema,
  GateSettingsSchema,
  FinalSettingsSchema,
  MealAddSchema,
  DashboardVideosSchema,
  WelcomeVideosSchema,
  CreateAccountsSchema,
  AwardFormSchema,
  FlagAnswerSchema,
};
// Hidden fields only (ids of rows to delete): a refusal is a 400 page, never a field message.
const technical: Record<string, z.ZodObject> = { TeamDeleteSchema, UserDeleteSchema, ChallengeIdSchema, MealRemoveSchema, AwardRevokeSchema };

describe("form schemas under random and hostile input", () => {
  for (const [name, schema] of Object.entries({ ...forms, ...technical })) {
    it(`${name}: never throws${name in forms ? ", refuses in our words" : ""}`, () => {
      fc.assert(
        fc.property(hostileForm(Object.keys(schema.shape)), (form) => {
          const result = parseWithZod(form, { schema });
          if (result.status === "success" || !(name in forms)) return;
          for (const [field, errors] of Object.entries(result.error ?? {})) {
            for (const message of errors ?? []) {
              expect(message.length, `${name}.${field}`).toBeGreaterThan(0);
              expect(message, `${name}.${field}`).not.toMatch(LIBRARY_DEFAULT);
            }
          }
        }),
        { numRuns: 1000 },
      );
    });
  }

  it("a judge's score: never throws, refuses in our words", () => {
    fc.assert(
      fc.property(hostileValue, fc.integer({ min: 1, max: 1000 }), (value, points) => {
        const result = scoreInputSchema(points).safeParse(value);
        if (!result.success) for (const issue of result.error.issues) expect(issue.message).not.toMatch(LIBRARY_DEFAULT);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("uploaded file names", () => {
  it("keep the last path segment, without control characters, never empty", () => {
    expect(safeFileName("../../etc/passwd")).toBe("passwd");
    expect(safeFileName("C:\\Users\\me\\answer.pdf")).toBe("answer.pdf");
    expect(safeFileName("evil\u0000na\u0007me\r\n.txt")).toBe("evilname.txt");
    expect(safeFileName("..")).toBe("file");
    expect(safeFileName("   ")).toBe("file");
    expect(safeFileName(`${"a".repeat(300)}.pdf`)).toHaveLength(255);
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (name) => {
        const safe = safeFileName(name);
        expect(safe.length).toBeGreaterThan(0);
        expect(safe.length).toBeLessThanOrEqual(255);
        // eslint-disable-next-line no-control-regex -- the point of the check
        expect(safe).not.toMatch(/[/\\\u0000-\u001F\u007F]/);
      }),
      { numRuns: 1000 },
    );
  });
});
