import { Form, Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useT } from "~/components/i18n";
import { useFormats } from "~/components/realtime/format";
import { ActionButton } from "~/components/ui/action-button";
import { confirmSubmit } from "~/components/ui/confirm-submit";
import { SelectField } from "~/components/ui/field";
import { ListPageLinks } from "~/components/ui/page-links";
import { attemptVerdicts, type AttemptListQuery, type TriedAnswer } from "~/modules/flags/attempts-query";
import { TryAnswer } from "~/components/dashboard/try-answer";
import type { AttemptRow, ResettableCount, SharingRow } from "~/modules/flags/attempts.server";
import type { ListPage } from "~/modules/paging";
import { Folded, SideScroll } from "~/components/ui/side-scroll";

type Iso<T, K extends keyof T> = Omit<T, K> & { [P in K]: string };

/** What the page's loader gives: instants as ISO text. */
export interface AttemptsPageData {
  timeZone: string;
  query: AttemptListQuery;
  view: "attempts" | "sharing";
  choices: { teams: Array<{ id: number; name: string }>; challenges: Array<{ id: number; title: string; perTeam: boolean }> };
  sharingTotal: number;
  pages: ListPage;
  attempts: Array<Iso<AttemptRow, "at">>;
  sharing: Array<Iso<SharingRow, "at">>;
  resettable: Array<Iso<ResettableCount, "lastAt">>;
  resettableLimit: number;
  /** The action's answer to an admin's test of an answer (null: none yet). */
  tried: TriedAnswer | null;
}

/** The query as a link keeps it (empty values dropped), with `change` applied. */
function queryText(query: AttemptListQuery, change: Partial<Record<keyof AttemptListQuery, string | number | undefined>> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, ...change })) if (value !== undefined && value !== "") params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
}

const verdictKeys = { correct: "attemptsPage.verdict.correct", incorrect: "attemptsPage.verdict.incorrect" } as const;

function Tabs({ query, view, sharingTotal }: Pick<AttemptsPageData, "query" | "view" | "sharingTotal">) {
  const { t } = useT();
  const format = useFormats();
  // A tab keeps the team and challenge filters; the page starts again (the verdict is the attempts' own).
  const tabs = [
    { view: "attempts", label: t("attemptsPage.tabs.attempts"), to: `/dashboard/attempts${queryText({ team: query.team, challenge: query.challenge, verdict: query.verdict })}` },
    {
      view: "sharing",
      label: t("attemptsPage.tabs.sharing", { count: sharingTotal, number: format.number(sharingTotal) }),
      to: `/dashboard/attempts${queryText({ view: "sharing", team: query.team, challenge: query.challenge })}`,
    },
  ] as const;
  return (
    <nav aria-label={t("attemptsPage.tabs.label")}>
      <ul className="cluster attempts-tabs">
        {tabs.map((tab) => (
          <li key={tab.view}>
            <Link to={tab.to} aria-current={tab.view === view ? "page" : undefined} className={tab.view === view ? "attempts-tabs__tab attempts-tabs__tab--on" : "attempts-tabs__tab"}>
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Filters({ query, view, choices }: Pick<AttemptsPageData, "query" | "view" | "choices">) {
  const { t } = useT();
  // A team or challenge from a link that is gone stays chosen (by its number).
  const teamListed = query.team === undefined || choices.teams.some((team) => team.id === query.team);
  const challengeListed = query.challenge === undefined || choices.challenges.some((challenge) => challenge.id === query.challenge);
  return (
    <Form method="get" className="dash-filters card" aria-label={t("attemptsPage.filterLabel")}>
      {view === "sharing" ? <input type="hidden" name="view" value="sharing" /> : null}
      <SelectField label={t("attemptsPage.team")} selectProps={{ id: "attempts-team", name: "team", defaultValue: query.team ?? "" }}>
        <option value="">{t("attemptsPage.allTeams")}</option>
        {teamListed ? null : <option value={query.team}>{t("attemptsPage.teamNumber", { id: query.team })}</option>}
        {choices.teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.name}
          </option>
        ))}
      </SelectField>
      <SelectField label={t("attemptsPage.challenge")} selectProps={{ id: "attempts-challenge", name: "challenge", defaultValue: query.challenge ?? "" }}>
        <option value="">{t("attemptsPage.allChallenges")}</option>
        {challengeListed ? null : <option value={query.challenge}>{t("attemptsPage.challengeNumber", { id: query.challenge })}</option>}
        {choices.challenges.map((challenge) => (
          <option key={challenge.id} value={challenge.id}>
            {challenge.title}
          </option>
        ))}
      </SelectField>
      {view === "attempts" ? (
        <SelectField label={t("attemptsPage.verdictLabel")} selectProps={{ id: "attempts-verdict", name: "verdict", defaultValue: query.verdict ?? "" }}>
          <option value="">{t("attemptsPage.anyVerdict")}</option>
          {attemptVerdicts.map((verdict) => (
            <option key={verdict} value={verdict}>
              {t(verdictKeys[verdict])}
            </option>
          ))}
        </SelectField>
      ) : null}
      <ActionButton type="submit" variant="subtle">
        {t("attemptsPage.filter")}
      </ActionButton>
      <Link to={view === "sharing" ? "/dashboard/attempts?view=sharing" : "/dashboard/attempts"}>{t("attemptsPage.clear")}</Link>
    </Form>
  );
}

/** The downloads: these attempts as CSV; every team's per-team flag of a challenge (a POST: audited, never prefetched). */
function Downloads({ query, choices }: Pick<AttemptsPageData, "query" | "choices">) {
  const { t } = useT();
  const perTeam = choices.challenges.filter((challenge) => challenge.perTeam);
  return (
    <section className="card stack" aria-labelledby="attempts-downloads">
      <h2 id="attempts-downloads">{t("attemptsPage.downloads")}</h2>
      <p>
        <a href={`/dashboard/exports/attempts.csv${queryText({ team: query.team, challenge: query.challenge, verdict: query.verdict })}`} download>
          {t("attemptsPage.downloadAttempts")}
        </a>
      </p>
      {perTeam.length === 0 ? (
        <p className="muted">{t("attemptsPage.noPerTeam")}</p>
      ) : (
        <Form method="post" action="/dashboard/exports/team-flags.csv" reloadDocument className="dash-filters">
          <SelectField
            label={t("attemptsPage.teamFlagsChallenge")}
            selectProps={{ id: "team-flags-challenge", name: "challenge", required: true, defaultValue: perTeam.some((c) => c.id === query.challenge) ? query.challenge : perTeam[0].id }}
          >
            {perTeam.map((challenge) => (
              <option key={challenge.id} value={challenge.id}>
                {challenge.title}
              </option>
            ))}
          </SelectField>
          <ActionButton type="submit" variant="subtle" name="what" value="flags">
            {t("attemptsPage.downloadTeamFlags")}
          </ActionButton>
          <ActionButton type="submit" variant="subtle" name="what" value="key">
            {t("attemptsPage.downloadTeamFlagsKey")}
          </ActionButton>
          <p className="muted">{t("attemptsPage.teamFlagsHint")}</p>
        </Form>
      )}
    </section>
  );
}

/** Characters that reorder text or show nothing (direction controls, zero widths, the BOM). */
const INVISIBLE = /([\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff])/;

/**
 * What a team typed, as text (React escapes it: never HTML), isolated in a <bdi> so nothing in it reorders the
 * row, and each invisible character shown as its code point ("<U+202E>") so the admin reads what was sent.
 */
function TypedAnswer({ text }: { text: string }) {
  const parts = text.split(INVISIBLE);
  return (
    <code dir="ltr">
      <bdi>
        {parts.map((part, index) =>
          index % 2 === 1 ? (
            <span key={index} className="attempt-answer__control">
              {`<U+${part.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}>`}
            </span>
          ) : (
            part
          ),
        )}
      </bdi>
    </code>
  );
}

/** A list of what happened, newest first: when (in the event's zone), then `columns`. */
function EventTable<Row extends { id: number; at: string }>({
  caption,
  columns,
  rows,
  timeZone,
  className,
  rowProps,
}: {
  caption: string;
  /** Each column's priority (docs/screens.md): 2 and 3 drop on narrow boxes, folded under the row's time. */
  columns: Array<{ label: string; cell: (row: Row) => ReactNode; priority?: 2 | 3 }>;
  rows: Row[];
  timeZone: string;
  className?: string;
  rowProps: (row: Row) => Record<string, string | number>;
}) {
  const { t } = useT();
  const format = useFormats();
  return (
    <SideScroll>
      <table className={className ? `table ${className}` : "table"}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t("attemptsPage.column.when")}</th>
            {columns.map((column) => (
              <th key={column.label} scope="col" data-priority={column.priority}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} {...rowProps(row)}>
              <td className="nowrap">
                <time dateTime={row.at}>{format.dayTime(row.at, timeZone)}</time>
                <Folded lines={columns.map((column) => column.priority !== undefined && { label: column.label, value: column.cell(row), priority: column.priority })} />
              </td>
              {columns.map((column) => (
                <td key={column.label} data-priority={column.priority}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </SideScroll>
  );
}

/** A name as text, isolated from the row's direction; a deleted user says so. */
function Name({ name }: { name: string | null }) {
  const { t } = useT();
  return name === null ? <span className="muted">{t("attemptsPage.deletedUser")}</span> : <bdi>{name}</bdi>;
}

function AttemptsTable({ rows, timeZone }: { rows: AttemptsPageData["attempts"]; timeZone: string }) {
  const { t } = useT();
  return (
    <EventTable
      caption={t("attemptsPage.caption")}
      className="attempts-table"
      rows={rows}
      timeZone={timeZone}
      rowProps={(row) => ({ "data-attempt-id": row.id, className: `attempt--${row.verdict}` })}
      columns={[
        { label: t("attemptsPage.column.team"), cell: (row) => <Name name={row.team} /> },
        { label: t("attemptsPage.column.user"), cell: (row) => <Name name={row.user} />, priority: 3 },
        { label: t("attemptsPage.column.challenge"), cell: (row) => <Name name={row.challenge} />, priority: 2 },
        {
          label: t("attemptsPage.column.verdict"),
          cell: (row) => (
            <>
              {t(verdictKeys[row.verdict])}
              {row.verdict === "incorrect" && !row.counted ? <span className="muted"> {t("attemptsPage.notCounted")}</span> : null}
            </>
          ),
        },
        {
          label: t("attemptsPage.column.answer"),
          priority: 3,
          cell: (row) =>
            row.verdict === "correct" ? (
              t("attemptsPage.answerNumber", { number: row.matched ?? "?" })
            ) : row.answer === null ? (
              <span className="muted">{t("attemptsPage.notKept")}</span>
            ) : (
              <span className="attempt-answer">
                <TypedAnswer text={row.answer} />
              </span>
            ),
        },
      ]}
    />
  );
}

function ResetList({ rows, limit, timeZone }: { rows: AttemptsPageData["resettable"]; limit: number; timeZone: string }) {
  const { t } = useT();
  const format = useFormats();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "reset" ? `${navigation.formData.get("teamId")}-${navigation.formData.get("challengeId")}` : null;
  return (
    <section className="card stack" aria-labelledby="attempts-resets">
      <h2 id="attempts-resets">{t("attemptsPage.resets.heading")}</h2>
      <p className="muted">{t("attemptsPage.resets.hint")}</p>
      {rows.length === 0 ? (
        <p>{t("attemptsPage.resets.none")}</p>
      ) : (
        <SideScroll>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("attemptsPage.column.team")}</th>
                <th scope="col">{t("attemptsPage.column.challenge")}</th>
                <th scope="col" className="num">
                  {t("attemptsPage.resets.counted")}
                </th>
                <th scope="col">{t("attemptsPage.resets.last")}</th>
                <th scope="col">{t("attemptsPage.resets.action")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const key = `${row.teamId}-${row.challengeId}`;
                return (
                  <tr key={key} data-reset={key}>
                    <td>
                      <bdi>{row.team}</bdi>
                    </td>
                    <td>
                      <bdi>{row.challenge}</bdi>
                    </td>
                    <td className="num">
                      {row.maxAttempts === null
                        ? format.number(row.wrong)
                        : t("attemptsPage.resets.ofMax", { count: row.wrong, number: format.number(row.wrong), max: format.number(row.maxAttempts) })}
                    </td>
                    <td className="nowrap">
                      <time dateTime={row.lastAt}>{format.dayTime(row.lastAt, timeZone)}</time>
                    </td>
                    <td>
                      <Form method="post" preventScrollReset onSubmit={confirmSubmit(t("attemptsPage.resets.confirm", { team: row.team, challenge: row.challenge }))}>
                        <input type="hidden" name="teamId" value={row.teamId} />
                        <input type="hidden" name="challengeId" value={row.challengeId} />
                        <button
                          type="submit"
                          name="intent"
                          value="reset"
                          className="link-button link-button--danger"
                          aria-label={t("attemptsPage.resets.label", { team: row.team, challenge: row.challenge })}
                          disabled={busy === key}
                        >
                          {busy === key ? t("attemptsPage.resets.resetting") : t("attemptsPage.resets.reset")}
                        </button>
                      </Form>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </SideScroll>
      )}
      {rows.length >= limit ? <p className="muted">{t("attemptsPage.resets.more", { count: limit, number: format.number(limit) })}</p> : null}
    </section>
  );
}

function SharingTable({ rows, timeZone }: { rows: AttemptsPageData["sharing"]; timeZone: string }) {
  const { t } = useT();
  return (
    <EventTable
      caption={t("attemptsPage.sharing.caption")}
      rows={rows}
      timeZone={timeZone}
      rowProps={(row) => ({ "data-sharing-id": row.id })}
      columns={[
        { label: t("attemptsPage.sharing.sender"), cell: (row) => <Name name={row.team} /> },
        { label: t("attemptsPage.sharing.owner"), cell: (row) => <Name name={row.ownerTeam} /> },
        { label: t("attemptsPage.column.user"), cell: (row) => <Name name={row.user} /> },
        { label: t("attemptsPage.column.challenge"), cell: (row) => <Name name={row.challenge} /> },
      ]}
    />
  );
}

/** Dashboard → Attempts: the teams' answers to flag challenges, the counts to reset, the sharing signals. */
export function AttemptsScreen(data: AttemptsPageData) {
  const { t } = useT();
  const { query, view, pages, timeZone } = data;
  const filtered = query.team !== undefined || query.challenge !== undefined || (view === "attempts" && query.verdict !== undefined);
  const pageQuery = view === "sharing" ? { view, team: query.team, challenge: query.challenge } : { team: query.team, challenge: query.challenge, verdict: query.verdict };
  return (
    <section aria-labelledby="attempts-title" className="stack dash-page">
      <h1 id="attempts-title">{t("attemptsPage.heading")}</h1>
      <p className="muted">{t("attemptsPage.intro")}</p>
      <Tabs query={query} view={view} sharingTotal={data.sharingTotal} />
      <Filters query={query} view={view} choices={data.choices} />
      {view === "attempts" ? (
        <>
          <section aria-labelledby="attempts-list" className="stack">
            <h2 id="attempts-list">{t("attemptsPage.listHeading")}</h2>
            {data.attempts.length === 0 ? <p>{filtered ? t("attemptsPage.noneFiltered") : t("attemptsPage.none")}</p> : <AttemptsTable rows={data.attempts} timeZone={timeZone} />}
            {pages.pages > 1 ? (
              <ListPageLinks pages={pages} query={pageQuery} label={t("attemptsPage.pagesLabel")} range={(figures) => t("attemptsPage.range", figures)} />
            ) : null}
          </section>
          <ResetList rows={data.resettable} limit={data.resettableLimit} timeZone={timeZone} />
          <TryAnswer challenges={data.choices.challenges} teams={data.choices.teams} tried={data.tried} />
          <Downloads query={query} choices={data.choices} />
        </>
      ) : (
        <section aria-labelledby="sharing-list" className="stack">
          <h2 id="sharing-list">{t("attemptsPage.sharing.heading")}</h2>
          <p className="muted">{t("attemptsPage.sharing.hint")}</p>
          {data.sharing.length === 0 ? <p>{filtered ? t("attemptsPage.sharing.noneFiltered") : t("attemptsPage.sharing.none")}</p> : <SharingTable rows={data.sharing} timeZone={timeZone} />}
          {pages.pages > 1 ? (
            <ListPageLinks pages={pages} query={pageQuery} label={t("attemptsPage.sharing.pagesLabel")} range={(figures) => t("attemptsPage.sharing.range", figures)} />
          ) : null}
        </section>
      )}
    </section>
  );
}
