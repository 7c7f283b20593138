import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useFetcher } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useEffect, useRef, useState } from "react";
import { useT } from "~/components/i18n";
import { categoryLabel, submissionStatusKeys } from "~/components/participant/category";
import { useFormats } from "~/components/realtime/format";
import { useServerMessage } from "~/components/server-message";
import { ActionButton } from "~/components/ui/action-button";
import { ListPageLinks } from "~/components/ui/page-links";
import { Folded, SideScroll } from "~/components/ui/side-scroll";
import { useHydrated } from "~/hooks/use-hydrated";
import { verdictChoices } from "~/modules/scoring/score-input";
import type { listSubmissionsPage, SubmissionListPage, SubmissionSortKey } from "~/modules/submissions/list.server";
import type { SubmissionListQuery } from "~/modules/submissions/schema";

/** What the page's loader gives: a page of the list, instants as ISO text. */
export interface SubmissionsPageData {
  judgeId: number;
  timeZone: string;
  query: SubmissionListQuery;
  pages: SubmissionListPage;
  rows: Row[];
}

type Row = Omit<Awaited<ReturnType<typeof listSubmissionsPage>>["rows"][number], "createdAt" | "updatedAt"> & { createdAt: string; updatedAt: string };

const verdictKeys = {
  approved: "submissionsPage.verdict.approve",
  rejected: "submissionsPage.verdict.reject",
  reviewed: "submissionsPage.verdict.review",
} as const;

function ScoreForm({ row, judgeId }: { row: Row; judgeId: number }) {
  const { t } = useT();
  const serverMessage = useServerMessage();
  const fetcher = useFetcher<SubmissionResult<string[]>>();
  const hydrated = useHydrated();
  // Without JavaScript the form posts as a page: its refusal comes back as the page's action data.
  const pageResult = useActionReply<SubmissionResult<string[]>>();
  const result = fetcher.data ?? (pageResult?.initialValue?.submissionId === String(row.id) ? pageResult : undefined);
  const mine = row.judgeScores.find((score) => score.judgeId === judgeId);
  const typedBefore = result?.initialValue?.score;
  const [value, setValue] = useState(typeof typedBefore === "string" ? typedBefore : mine ? String(mine.score) : "");
  const inputRef = useRef<HTMLInputElement>(null);
  // A score typed before hydration is in the DOM but not in state: pick it up so Send enables.
  useEffect(() => {
    const typed = inputRef.current?.value;
    if (typed !== undefined && typed !== "") setValue(typed);
  }, []);
  const sending = fetcher.state !== "idle";
  const errors = result && "error" in result ? result.error : undefined;
  const error = errors?.score?.[0] ?? errors?.submissionId?.[0];
  const inputId = `score-${row.id}`;
  return (
    <fetcher.Form method="post" className="score-form" aria-label={t("submissionsPage.scoreFormLabel", { team: row.team, challenge: row.challenge })}>
      <input type="hidden" name="submissionId" value={row.id} />
      <label htmlFor={inputId}>{t("submissionsPage.scoreRange", { points: row.points })}</label>
      <input
        ref={inputRef}
        id={inputId}
        name="score"
        type="number"
        inputMode="decimal"
        min={0}
        max={row.points}
        step="0.01"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        dir="ltr"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
        className="field__input"
      />
      <label htmlFor={`comment-${row.id}`}>{t("submissionsPage.comment")}</label>
      <input id={`comment-${row.id}`} name="comment" type="text" dir="auto" defaultValue={mine?.comment ?? ""} className="field__input" maxLength={2000} />
      <label htmlFor={`verdict-${row.id}`}>{t("submissionsPage.status")}</label>
      <select id={`verdict-${row.id}`} name="verdict" defaultValue="" className="field__input field__input--select">
        {verdictChoices(row.status).map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.value === ""
              ? row.status === "pending"
                ? t("submissionsPage.verdict.byDefault")
                : t("submissionsPage.verdict.keep", { status: t(submissionStatusKeys[row.status]) })
              : t(verdictKeys[choice.value])}
          </option>
        ))}
      </select>
      {/* Disabled while empty or sending — only once JavaScript can enable it again. */}
      <ActionButton type="submit" disabled={hydrated && (sending || value.trim() === "")}>
        {sending ? t("common.sending") : t("common.send")}
      </ActionButton>
      <p id={`${inputId}-error`} className="error-list__item" role={error ? "alert" : undefined}>
        {error ? serverMessage(error) : ""}
      </p>
    </fetcher.Form>
  );
}

type Query = SubmissionListQuery;

/** The sortable columns and their priorities (docs/screens.md): the team and the score form always stay. */
const sortColumns: Array<{ key: SubmissionSortKey; label: string; priority?: 2 | 3 }> = [
  { key: "team", label: "submissionsPage.column.team" },
  { key: "user", label: "submissionsPage.column.user", priority: 3 },
  { key: "challenge", label: "submissionsPage.column.challenge", priority: 2 },
  { key: "date", label: "submissionsPage.column.date", priority: 3 },
  { key: "status", label: "submissionsPage.column.status", priority: 2 },
];

/** A header that sorts by its column (a plain link: works without JavaScript); again reverses it. */
function SortHeader({ column, label, query, priority }: { column: SubmissionSortKey; label: string; query: Query; priority?: 2 | 3 }) {
  const active = query.sort === column;
  const params = new URLSearchParams();
  // A new order starts at its first page.
  for (const [key, value] of Object.entries(query)) if (value !== undefined && key !== "sort" && key !== "dir" && key !== "page") params.set(key, String(value));
  params.set("sort", column);
  params.set("dir", active && query.dir === "asc" ? "desc" : "asc");
  return (
    <th scope="col" data-priority={priority} aria-sort={active ? (query.dir === "asc" ? "ascending" : "descending") : undefined}>
      <Link to={`?${params}`} className="sort-link" preventScrollReset>
        {label}
        {/* A no-break space: a header that wraps keeps its arrow beside the last word. */}
        <span aria-hidden="true">{active ? (query.dir === "asc" ? "\u00a0▲" : "\u00a0▼") : "\u00a0↕"}</span>
      </Link>
    </th>
  );
}

function Filters({ query }: { query: Query }) {
  const { t } = useT();
  return (
    <Form method="get" className="dash-filters card" aria-label={t("submissionsPage.filterLabel")}>
      <input type="hidden" name="sort" value={query.sort} />
      <input type="hidden" name="dir" value={query.dir} />
      <div className="field">
        <label className="field__label" htmlFor="filter-gate">
          {t("submissionsPage.gate")}
        </label>
        <select id="filter-gate" name="gate" defaultValue={query.gate ?? ""} className="field__input field__input--select">
          <option value="">{t("submissionsPage.allGates")}</option>
          {[1, 2, 3, 4, 5].map((gate) => (
            <option key={gate} value={gate}>
              {t("submissionsPage.gateNumber", { gate })}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor="filter-category">
          {t("submissionsPage.category")}
        </label>
        <select id="filter-category" name="category" defaultValue={query.category ?? ""} className="field__input field__input--select">
          <option value="">{t("submissionsPage.allCategories")}</option>
          {(["AI", "CS", "PS", "GD"] as const).map((category) => (
            <option key={category} value={category}>
              {categoryLabel(category, t)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor="filter-status">
          {t("submissionsPage.withStatus")}
        </label>
        <select id="filter-status" name="status" defaultValue={query.status ?? ""} className="field__input field__input--select">
          <option value="">{t("submissionsPage.anyStatus")}</option>
          {(["pending", "approved", "rejected", "reviewed"] as const).map((status) => (
            <option key={status} value={status}>
              {t(submissionStatusKeys[status])}
            </option>
          ))}
        </select>
      </div>
      <label className="checkbox">
        <input type="checkbox" name="mine" value="unscored" defaultChecked={query.mine === "unscored"} /> {t("submissionsPage.notScoredByMe")}
      </label>
      <ActionButton type="submit" variant="subtle">
        {t("submissionsPage.filter")}
      </ActionButton>
      <Link to="/dashboard/submissions">{t("submissionsPage.clear")}</Link>
    </Form>
  );
}

/** The list's pages (`?page=`, the sort and filters kept). */
function ListPages({ pages, query }: { pages: SubmissionListPage; query: Query }) {
  const { t } = useT();
  return <ListPageLinks pages={pages} query={query} label={t("submissionsPage.pagesLabel")} range={(figures) => t("submissionsPage.range", figures)} />;
}

/** Dashboard → Submissions: the filters, a page of the list (sortable by its headers) with a score form a row. */
export function SubmissionsScreen({ rows, judgeId, query, timeZone, pages }: SubmissionsPageData) {
  const { t } = useT();
  const format = useFormats();
  return (
    <section aria-labelledby="submissions-title" className="stack dash-submissions">
      <h1 id="submissions-title">{t("submissionsPage.heading")}</h1>
      <Filters query={query} />
      {rows.length === 0 ? (
        <p>{Object.keys(query).some((key) => !["sort", "dir", "page"].includes(key) && query[key as keyof Query] !== undefined) ? t("submissionsPage.noneFiltered") : t("submissionsPage.none")}</p>
      ) : (
        <SideScroll roomy>
          <table className="table">
            <thead>
              <tr>
                {sortColumns.map((column) => (
                  <SortHeader key={column.key} column={column.key} label={t(column.label)} query={query} priority={column.priority} />
                ))}
                <th scope="col" data-priority="2">{t("submissionsPage.column.submission")}</th>
                <SortHeader column="points" label={t("submissionsPage.column.points")} query={query} priority={2} />
                <th scope="col" data-priority="3">{t("submissionsPage.column.judges")}</th>
                <th scope="col">{t("submissionsPage.column.yourScore")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const user = row.user ? <bdi>{row.user}</bdi> : t("submissionsPage.deletedUser");
                const challenge = (
                  <>
                    <bdi>{row.challenge}</bdi> <span className="muted">{t("submissionsPage.challengeMeta", { category: row.category, points: row.points })}</span>
                  </>
                );
                const date = <time dateTime={row.createdAt}>{format.dayTime(row.createdAt, timeZone)}</time>;
                const status = <span className={`status-${row.status}`}>{t(submissionStatusKeys[row.status])}</span>;
                const answer = (
                  <>
                    {row.text ? <span dir="auto">{row.text}</span> : null}
                    {row.fileName ? (
                      <a href={`/submissions/${row.id}/file`} title={row.fileName}>
                        {t("submissionsPage.file")} <bdi>{row.fileName}</bdi>
                      </a>
                    ) : null}
                    {!row.text && !row.fileName ? "—" : null}
                  </>
                );
                const score = row.scoreCenti === null ? "—" : (row.scoreCenti / 100).toFixed(2);
                const judges =
                  row.judgeScores.length === 0 ? (
                    <span className="muted">{t("submissionsPage.notScored")}</span>
                  ) : (
                    <ul className="judge-scores">
                      {row.judgeScores.map((judgeScore) => (
                        <li key={`${judgeScore.judgeId}-${judgeScore.judge}`}>
                          <bdi>{judgeScore.judge}</bdi>: <bdi dir="ltr">{judgeScore.score}</bdi>
                          {judgeScore.comment ? (
                            <>
                              {" — "}
                              <bdi>{judgeScore.comment}</bdi>
                            </>
                          ) : null}
                        </li>
                      ))}
                    </ul>
                  );
                return (
                <tr key={row.id} className={`status-${row.status}`} data-submission-id={row.id}>
                  <td>
                    <bdi>{row.team}</bdi>
                    <Folded
                      lines={[
                        { label: t("submissionsPage.column.challenge"), value: challenge, priority: 2 },
                        { label: t("submissionsPage.column.status"), value: status, priority: 2 },
                        { label: t("submissionsPage.column.submission"), value: <span className="submission-text">{answer}</span>, priority: 2 },
                        { label: t("submissionsPage.column.user"), value: user, priority: 3 },
                        { label: t("submissionsPage.column.date"), value: date, priority: 3 },
                        { label: t("submissionsPage.column.points"), value: <span dir="ltr">{score}</span>, priority: 2 },
                        { label: t("submissionsPage.column.judges"), value: judges, priority: 3 },
                      ]}
                    />
                  </td>
                  <td data-priority="3">{user}</td>
                  <td data-priority="2">{challenge}</td>
                  <td data-priority="3">{date}</td>
                  <td data-priority="2">{status}</td>
                  <td className="submission-text" data-priority="2">
                    {answer}
                  </td>
                  <td className="num" dir="ltr" data-priority="2">
                    {score}
                  </td>
                  <td data-priority="3">{judges}</td>
                  <td>
                    {row.hasRubric ? (
                      <p className="muted">
                        {t("submissionsPage.perCriterion")} <Link to={`/dashboard/judge?s=${row.id}`}>{t("submissionsPage.openInJudging")}</Link>
                      </p>
                    ) : (
                      <ScoreForm row={row} judgeId={judgeId} />
                    )}
                  </td>
                </tr>
                );
              })}
            </tbody>
          </table>
        </SideScroll>
      )}
      {pages.pages > 1 ? <ListPages pages={pages} query={query} /> : null}
    </section>
  );
}
