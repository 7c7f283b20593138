/**
 * What the judge workspace's screens share (app/routes/dashboard.judge.tsx): the data they read, the score
 * input's id (the shortcut E focuses it), the file routes' addresses, sizes and instants as the page says them.
 */
import type { TFunction } from "i18next";
import { useFormats } from "~/components/realtime/format";
import { intlLocale, type Language } from "~/modules/i18n/i18n";
import type { WorkspacePage } from "~/modules/judging/workspace-page.server";

export type { WorkspacePage };
export type Current = NonNullable<WorkspacePage["current"]>;

export const SCORE_INPUT = "judge-score";

const byteFormats: Record<Language, Intl.NumberFormat> = {
  en: new Intl.NumberFormat(intlLocale("en"), { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false }),
  ar: new Intl.NumberFormat(intlLocale("ar"), { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false }),
};

export function formatSize(bytes: number | null, t: TFunction, language: Language): string {
  if (bytes === null) return t("judgeWorkspace.size.unknown");
  if (bytes < 1024) return t("judgeWorkspace.size.bytes", { size: bytes });
  if (bytes < 1024 * 1024) return t("judgeWorkspace.size.kilobytes", { size: byteFormats[language].format(bytes / 1024) });
  return t("judgeWorkspace.size.megabytes", { size: byteFormats[language].format(bytes / 1024 / 1024) });
}

/** A day and time in the event's zone, in the page's language. */
export function useAt() {
  const format = useFormats();
  return (date: Date, timeZone: string) => format.dayTime(date.toISOString(), timeZone);
}

export const inlineHref = (submissionId: number, versionId?: number) => `/submissions/${submissionId}/inline${versionId ? `?version=${versionId}` : ""}`;
export const downloadHref = (submissionId: number, versionId?: number) => `/submissions/${submissionId}/file${versionId ? `?version=${versionId}` : ""}`;
