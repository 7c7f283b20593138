import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nContext } from "react-i18next";
import { describe, expect, it } from "vitest";
import type { ShownRun } from "~/modules/code/runs.server";
import { RunDetails } from "./code-screen.tsx";

const run: ShownRun = {
  id: 1,
  language: "cpp",
  state: "done",
  verdict: "compilation-error",
  tests: [],
  passedSubtasks: [],
  pointsCenti: 0,
  compileMessage: "main.cpp:1:1: error: expected unqualified-id",
  compileProblem: "compile-timeout",
  testIndex: null,
  testCount: null,
  createdAt: "2026-11-30T00:00:00.000Z",
  finishedAt: "2026-11-30T00:00:01.000Z",
};

/** A run's details rendered as a page in `language` renders them. */
const markupOf = (language: string, shown: ShownRun) =>
  renderToString(createElement(I18nContext.Provider, { value: { i18n: { language } } as never }, createElement(RunDetails, { run: shown })));

describe("a run's compile problem on the team's and the admins' pages", () => {
  it("is said in the page's language; the compiler's own lines stay as they are", () => {
    const arabic = markupOf("ar", run);
    expect(arabic).toContain("استغرقت الترجمة وقتًا أطول من المسموح.");
    expect(arabic).not.toContain("took too long");
    expect(arabic).toContain("expected unqualified-id");
    expect(markupOf("en", { ...run, compileProblem: "compile-memory" })).toContain("The compilation used too much memory.");
    expect(markupOf("en", { ...run, compileProblem: null })).not.toContain("The compilation");
  });
});
