import type { TFunction } from "i18next";

/** PS, GD and CS get names (docs/domain.md, "Gates and challenges"); anything else shows as it is (AI). */
const categoryKeys: Record<string, string> = {
  PS: "challenge.categories.PS",
  GD: "challenge.categories.GD",
  CS: "challenge.categories.CS",
};

const englishCategories: Record<string, string> = { PS: "Problem Solving", GD: "Design", CS: "Cyber Security" };

/** A category's name in the page's language (`t`), or in English without one. */
export function categoryLabel(category: string, t?: TFunction): string {
  const key = categoryKeys[category];
  if (!key) return category;
  return t ? t(key) : (englishCategories[category] ?? category);
}

const difficultyKeys: Record<string, string> = {
  Easy: "challenge.difficulties.Easy",
  Medium: "challenge.difficulties.Medium",
  Hard: "challenge.difficulties.Hard",
};

/** Easy, Medium, Hard in the page's language; none shows as a dash. */
export function difficultyLabel(difficulty: string | null, t: TFunction): string {
  if (!difficulty) return "—";
  const key = difficultyKeys[difficulty];
  return key ? t(key) : difficulty;
}

/** A submission's status key in the translation files (the participant's page, the judges' list and workspace). */
export const submissionStatusKeys: Readonly<Record<string, string>> = {
  pending: "submission.statuses.pending",
  approved: "submission.statuses.approved",
  rejected: "submission.statuses.rejected",
  reviewed: "submission.statuses.reviewed",
};
