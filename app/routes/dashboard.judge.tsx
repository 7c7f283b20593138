import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { useRevalidateOn } from "~/components/realtime/revalidate-on";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { categoryLabel, submissionStatusKeys } from "~/components/participant/category";
import { Trans } from "react-i18next";
import type { TFunction } from "i18next";
import { intlLocale, pageTitle, type Language } from "~/modules/i18n/i18n";
import { ActionButton } from "~/components/ui/action-button";
import { actorOf } from "~/glue/actor.server";
import { formFailure } from "~/glue/failures.server";
import { requirePage } from "~/glue/auth.server";
import { createToastHeaders } from "~/glue/toast.server";
import { judgeShortcuts, useJudgeShortcuts } from "~/hooks/use-judge-shortcuts";
import { challengesWithSubmissions, judgeBacklog, judgeHistory, judgeQueue } from "~/modules/judging/queue.server";
import { CLAIM_MINUTES, claimSubmission, handOut, renewClaim } from "~/modules/judging/claims.server";
import { readWorkspaceQuery, RenewClaimSchema, workspaceHref, WorkspaceScoreSchema, type WorkspaceQuery } from "~/modules/judging/schema";
import { getJudgingSettings } from "~/modules/judging/settings.server";
import { namesView } from "~/modules/judging/blind.server";
import { neighbours, submissionForJudge } from "~/modules/judging/workspace.server";
import { badRequest } from "~/glue/responses.server";
import { messages } from "~/modules/messages";
import { rubricScoreCenti } from "~/modules/scoring/rubric";
import { SOLVE_THRESHOLD_PERCENT } from "~/modules/scoring/rules";
import { scoreSubmission } from "~/modules/scoring/scoring.server";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import { KEPT_VERSION_FILES } from "~/modules/submissions/submit.server";
import styles from "~/styles/judge.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "judgeWorkspace.title") }];

/** The one dashboard error boundary (routes/dashboard.tsx) says this when the workspace fails to load. */
export const handle: DashboardHandle = { loadFailed: (_message, t) => t("judgeWorkspace.loadFailed") };

export async function loader({ request }: LoaderFunctionArgs) {
  const judge = await requirePage(request);
  const query = readWorkspaceQuery(new URL(request.url).searchParams);
  const filter = { gate: query.gate, category: query.category, challengeId: query.challenge };
  const settings = await getJudgingSettings();
  const shared = settings.judgesPerSubmission !== null;
  if (query.s === undefined) {
    // Hand one out, then pin it in the address (nothing else is read before this redirect).
    const handed = await handOut(judge.id, filter, query.after, shared);
    if (handed !== null) throw redirect(workspaceHref({ ...filtersOf(query), s: handed, saved: query.saved }));
  } else if (shared) {
    await claimSubmission(judge.id, query.s).catch(() => undefined);
  }
  const currentId = query.s ?? null;
  const [queue, backlog, history, timeZone, challengeChoices] = await Promise.all([
    judgeQueue(judge.id, filter),
    judgeBacklog(judge.id),
    judgeHistory(judge.id, 30),
    getEventTimeZone(),
    challengesWithSubmissions(),
  ]);
  const found = currentId === null ? null : await submissionForJudge(currentId, judge.id);
  // Blind judging: a judge sees no team, member or file name (admins still do).
  const names = namesView(settings, judge);
  const current = found && names.submission(found);
  const { previous, next } = neighbours(queue, current?.id ?? null);
  const shownHistory = names.rows(history);
  const saved = query.saved === undefined ? undefined : shownHistory.find((entry) => entry.submissionId === query.saved);
  return {
    query,
    queue: names.rows(queue),
    backlog,
    history: shownHistory,
    current,
    blind: names.hidden,
    missing: query.s !== undefined && current === null,
    inQueue: current !== null && queue.some((item) => item.id === current.id),
    previous,
    next,
    saved: saved ?? null,
    timeZone,
    challengeChoices,
    claimMinutes: shared ? CLAIM_MINUTES : null,
    // Server-side constants reach the page through its data (a .server module is empty in the browser).
    keptVersionFiles: KEPT_VERSION_FILES,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const judge = await requirePage(request);
  const formData = await request.formData();
  if (formData.get("intent") === "renew") {
    const renewal = RenewClaimSchema.safeParse(Object.fromEntries(formData));
    if (!renewal.success) throw badRequest();
    return { renewed: await renewClaim(judge.id, renewal.data.submissionId) };
  }
  const form = parseWithZod(formData, { schema: WorkspaceScoreSchema });
  if (form.status !== "success") return data(form.reply(), { status: 400 });
  const { revision, ...score } = form.value;
  try {
    // The score ends the judge's claim on it (scoreSubmission).
    await scoreSubmission({ ...score, judge: actorOf(judge, request), seenRevision: new Date(revision) });
  } catch (error) {
    const failed = formFailure(form, error, { log: "scoring failed", fallback: messages.errors.server, fieldOf: (refusal) => refusal?.field });
    return data(failed.result, failed.init);
  }
  // Then the next submission of the queue after this one (the filters stay), with the score confirmed on the
  // page itself (no JavaScript needed) and as a toast.
  const query = readWorkspaceQuery(new URL(request.url).searchParams);
  return redirect(workspaceHref({ ...filtersOf(query), after: score.submissionId, saved: score.submissionId }), {
    headers: await createToastHeaders({ type: "success", title: messages.scoring.saved }),
  });
}

/** A claim's renewal changes nothing the page shows: no re-read for it. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "renew" ? false : defaultShouldRevalidate;

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;
type Current = NonNullable<LoaderData["current"]>;

/** The queue's filters, kept across every link and form of the page. */
const filtersOf = (query: WorkspaceQuery) => ({ gate: query.gate, category: query.category, challenge: query.challenge });
const isFiltered = (query: WorkspaceQuery) => query.gate !== undefined || query.category !== undefined || query.challenge !== undefined;

const SCORE_INPUT = "judge-score";

const byteFormats: Record<Language, Intl.NumberFormat> = {
  en: new Intl.NumberFormat(intlLocale("en"), { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false }),
  ar: new Intl.NumberFormat(intlLocale("ar"), { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false }),
};

function formatSize(bytes: number | null, t: TFunction, language: Language): string {
  if (bytes === null) return t("judgeWorkspace.size.unknown");
  if (bytes < 1024) return t("judgeWorkspace.size.bytes", { size: bytes });
  if (bytes < 1024 * 1024) return t("judgeWorkspace.size.kilobytes", { size: byteFormats[language].format(bytes / 1024) });
  return t("judgeWorkspace.size.megabytes", { size: byteFormats[language].format(bytes / 1024 / 1024) });
}


/** What each shortcut does (the keys themselves are physical: app/hooks/use-judge-shortcuts.ts). */
const shortcutKeys: Record<(typeof judgeShortcuts)[number]["code"], string> = {
  Enter: "judgeWorkspace.shortcut.enter",
  KeyS: "judgeWorkspace.shortcut.skip",
  KeyB: "judgeWorkspace.shortcut.back",
  KeyF: "judgeWorkspace.shortcut.file",
  KeyE: "judgeWorkspace.shortcut.score",
  Escape: "judgeWorkspace.shortcut.escape",
};

/** A day and time in the event's zone, in the page's language. */
function useAt() {
  const format = useFormats();
  return (date: Date, timeZone: string) => format.dayTime(date.toISOString(), timeZone);
}

export default function JudgeWorkspace() {
  const loaded = useLoaderData<typeof loader>();
  const { t } = useT();
  const format = useFormats();
  const serverMessage = useServerMessage();
  const { query, current, next, previous } = loaded;
  const hrefFor = (id: number | null) => (id === null ? null : workspaceHref({ ...filtersOf(query), s: id }));
  const fileHref = current?.file ? (current.file.view.kind === "image" || current.file.view.kind === "pdf" ? inlineHref(current.id) : `/submissions/${current.id}/file`) : null;
  // Skip: the next one after this (with N judges a submission, the next nobody else holds); back: the one before.
  const skipHref = current && loaded.queue.some((item) => item.id !== current.id) ? workspaceHref({ ...filtersOf(query), after: current.id }) : null;
  useJudgeShortcuts({ next: skipHref, previous: hrefFor(previous), file: fileHref, scoreInput: SCORE_INPUT });
  const claimLost = useClaimRenewal(current?.id ?? null, loaded.claimMinutes);
  // The queue and the backlog follow new submissions and other judges' scores without a reload.
  useRevalidateOn("judging:changed");
  return (
    <section aria-labelledby="judge-title" className="judge">
      <header className="judge__head">
        <h1 id="judge-title">{t("judgeWorkspace.heading")}</h1>
        <BacklogCounts data={loaded} />
        <QueueFilters query={query} challenges={loaded.challengeChoices} />
      </header>
      {loaded.saved ? (
        <p className="judge__saved" role="status">
          <Trans
            i18nKey="judgeWorkspace.saved"
            values={{ score: format.points(loaded.saved.scoreCenti / 100), team: loaded.saved.team, challenge: loaded.saved.challenge }}
            components={{ score: <bdi dir="ltr" />, team: <bdi />, challenge: <bdi /> }}
          />
        </p>
      ) : null}
      {loaded.missing ? <p role="alert">{serverMessage(messages.scoring.submissionNotFound)}.</p> : null}
      {claimLost ? (
        <p role="alert" className="judge__changed">
          {t("judgeWorkspace.claimLost")}
        </p>
      ) : null}
      {current ? (
        <div className="judge__grid">
          <Work current={current} timeZone={loaded.timeZone} blind={loaded.blind} keptVersionFiles={loaded.keptVersionFiles} />
          <aside className="judge__side" aria-label={t("judgeWorkspace.sideLabel")}>
            <ScorePanel
              current={current}
              next={next}
              inQueue={loaded.inQueue}
              timeZone={loaded.timeZone}
              formAction={workspaceHref({ ...filtersOf(query), s: current.id })}
            />
            <nav className="judge__moves" aria-label={t("judgeWorkspace.movesLabel")}>
              {hrefFor(previous) ? <Link to={hrefFor(previous)!}>{t("judgeWorkspace.previousKey")}</Link> : <span className="muted">{t("judgeWorkspace.previous")}</span>}
              {skipHref ? <Link to={skipHref}>{t("judgeWorkspace.skipKey")}</Link> : <span className="muted">{t("judgeWorkspace.skip")}</span>}
            </nav>
            <Shortcuts />
            <QueueList data={loaded} />
          </aside>
        </div>
      ) : (
        <p className="judge__empty card">{isFiltered(query) ? t("judgeWorkspace.emptyFiltered") : t("judgeWorkspace.empty")}</p>
      )}
      <History data={loaded} />
    </section>
  );
}

/**
 * While a judge holds a submission (N judges a submission), its claim is renewed each minute as long as the
 * tab is in view and the judge did something in the last CLAIM_MINUTES; otherwise it lapses and another
 * judge may be handed it. Without JavaScript the claim lasts CLAIM_MINUTES from the page's load.
 */
function useClaimRenewal(submissionId: number | null, claimMinutes: number | null): boolean {
  const { submit, data: renewal } = useFetcher<{ renewed: boolean }>();
  const lastActive = useRef(Date.now());
  useEffect(() => {
    if (submissionId === null || claimMinutes === null) return;
    const active = () => (lastActive.current = Date.now());
    const events = ["keydown", "pointerdown", "scroll"] as const;
    for (const name of events) window.addEventListener(name, active, { passive: true });
    const timer = setInterval(() => {
      if (document.visibilityState !== "visible" || Date.now() - lastActive.current > claimMinutes * 60_000) return;
      submit({ intent: "renew", submissionId: String(submissionId) }, { method: "post" });
    }, 60_000);
    return () => {
      clearInterval(timer);
      for (const name of events) window.removeEventListener(name, active);
    };
  }, [submissionId, claimMinutes, submit]);
  // The server says the judge no longer holds it (it lapsed while they were away, or they opened it elsewhere).
  return renewal?.renewed === false;
}

const inlineHref = (submissionId: number, versionId?: number) => `/submissions/${submissionId}/inline${versionId ? `?version=${versionId}` : ""}`;
const downloadHref = (submissionId: number, versionId?: number) => `/submissions/${submissionId}/file${versionId ? `?version=${versionId}` : ""}`;

function BacklogCounts({ data: { backlog, query } }: { data: LoaderData }) {
  const { t } = useT();
  const chip = (key: string, label: string, count: number, to: Partial<WorkspaceQuery>, active: boolean) => (
    <li key={key}>
      <Link to={workspaceHref(to)} className={`judge__chip${active ? " judge__chip--active" : ""}`} aria-current={active ? "true" : undefined}>
        {label} <strong>{count}</strong>
      </Link>
    </li>
  );
  return (
    <div className="judge__backlog" aria-label={t("judgeWorkspace.backlogLabel")}>
      <p className="judge__total">
        <Trans i18nKey="judgeWorkspace.total" values={{ total: backlog.total }} components={{ total: <strong data-testid="backlog-total" /> }} />
      </p>
      <ul className="judge__chips" aria-label={t("judgeWorkspace.perGate")}>
        {([1, 2, 3, 4, 5] as const).map((gate) =>
          chip(`gate-${gate}`, t("judgeWorkspace.gate", { gate }), backlog.byGate[gate], { gate, category: query.category }, query.gate === gate),
        )}
      </ul>
      <ul className="judge__chips" aria-label={t("judgeWorkspace.perCategory")}>
        {(["AI", "CS", "PS", "GD"] as const).map((category) =>
          chip(category, categoryLabel(category, t), backlog.byCategory[category], { gate: query.gate, category }, query.category === category),
        )}
      </ul>
    </div>
  );
}

function QueueFilters({ query, challenges }: { query: WorkspaceQuery; challenges: LoaderData["challengeChoices"] }) {
  const { t } = useT();
  return (
    <Form method="get" className="judge__filters" aria-label={t("judgeWorkspace.filterLabel")}>
      <label>
        {t("judgeWorkspace.gateLabel")}{" "}
        <select name="gate" defaultValue={query.gate ?? ""} className="field__input field__input--select">
          <option value="">{t("judgeWorkspace.allGates")}</option>
          {[1, 2, 3, 4, 5].map((gate) => (
            <option key={gate} value={gate}>
              {t("judgeWorkspace.gate", { gate })}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("judgeWorkspace.categoryLabel")}{" "}
        <select name="category" defaultValue={query.category ?? ""} className="field__input field__input--select">
          <option value="">{t("judgeWorkspace.allCategories")}</option>
          {(["AI", "CS", "PS", "GD"] as const).map((category) => (
            <option key={category} value={category}>
              {categoryLabel(category, t)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("judgeWorkspace.challengeLabel")}{" "}
        <select name="challenge" defaultValue={query.challenge ?? ""} className="field__input field__input--select">
          <option value="">{t("judgeWorkspace.allChallenges")}</option>
          {challenges.map((challenge) => (
            <option key={challenge.id} value={challenge.id}>
              {t("judgeWorkspace.gateShort", { gate: challenge.wave ?? "—" })} · {challenge.title}
            </option>
          ))}
        </select>
      </label>
      <ActionButton type="submit" variant="subtle">
        {t("judgeWorkspace.filter")}
      </ActionButton>
      {isFiltered(query) ? <Link to="/dashboard/judge">{t("judgeWorkspace.clear")}</Link> : null}
    </Form>
  );
}

function Work({ current, timeZone, blind, keptVersionFiles }: { current: Current; timeZone: string; blind: boolean; keptVersionFiles: number }) {
  const { t, language } = useT();
  const format = useFormats();
  const at = useAt();
  const { challenge } = current;
  const changed = current.mine !== null && current.mine.scoredAt.getTime() < current.revisedAt.getTime();
  const sender = blind ? t("judgeWorkspace.aTeamMember") : (current.user ?? t("judgeWorkspace.aDeletedUser"));
  return (
    <article className="judge__work card" aria-labelledby="work-title">
      <p className="judge__meta">
        {t("judgeWorkspace.meta", { gate: challenge.wave ?? "—", category: categoryLabel(challenge.category, t), points: challenge.points })}
      </p>
      <h2 id="work-title">
        <bdi>{current.team}</bdi> — <bdi>{challenge.title}</bdi>
      </h2>
      <p className="muted">
        {blind ? t("judgeWorkspace.blindNote") : null}
        <Trans
          i18nKey="judgeWorkspace.sentBy"
          values={{ who: sender, when: at(current.revisedAt, timeZone) }}
          components={{ who: <bdi />, when: <time dateTime={current.revisedAt.toISOString()} /> }}
        />
        {current.versions.length > 0 ? t("judgeWorkspace.version", { number: current.versions.length + 1 }) : ""}
        {t("judgeWorkspace.statusScored", { status: t(submissionStatusKeys[current.status]), count: current.judgesScored })}
      </p>
      {changed ? (
        <p className="judge__changed" role="note">
          <Trans
            i18nKey="judgeWorkspace.changed"
            values={{ score: format.points(current.mine!.scoreCenti / 100), when: at(current.mine!.scoredAt, timeZone) }}
            components={{ score: <bdi dir="ltr" />, link: <a href="#versions" /> }}
          />
        </p>
      ) : null}
      <section aria-labelledby="challenge-title" className="judge__challenge">
        <h3 id="challenge-title">{t("judgeWorkspace.challengeHeading")}</h3>
        <p className="judge__prose" dir="auto">
          {challenge.description}
        </p>
        {challenge.hints ? (
          <>
            <h4>{challenge.category === "GD" ? t("submission.criteria") : t("judgeWorkspace.hints")}</h4>
            <p className="judge__prose" dir="auto">
              {challenge.hints}
            </p>
          </>
        ) : null}
      </section>
      <section aria-labelledby="answer-title" className="judge__answer">
        <h3 id="answer-title">{t("judgeWorkspace.answerHeading")}</h3>
        {current.text ? (
          <p className="judge__prose judge__text" dir="auto">
            {current.text}
          </p>
        ) : (
          <p className="muted">{t("judgeWorkspace.noText")}</p>
        )}
        {current.file ? <FileView submissionId={current.id} file={current.file} /> : <p className="muted">{t("judgeWorkspace.noFile")}</p>}
      </section>
      {current.versions.length > 0 ? (
        <details id="versions" className="judge__versions" open={changed}>
          <summary>{t("judgeWorkspace.earlierVersions", { number: current.versions.length })}</summary>
          <ol>
            {current.versions.map((version) => (
              <li key={version.id}>
                <p className="muted">
                  <Trans
                    i18nKey="judgeWorkspace.versionSent"
                    values={{
                      when: at(version.submittedAt, timeZone),
                      who: blind ? t("judgeWorkspace.aTeamMember") : (version.user ?? t("judgeWorkspace.aDeletedUser")),
                      replaced: at(version.replacedAt, timeZone),
                    }}
                    components={{ when: <time dateTime={version.submittedAt.toISOString()} />, who: <bdi /> }}
                  />
                </p>
                {version.text ? (
                  <p className="judge__prose judge__text" dir="auto">
                    {version.text}
                  </p>
                ) : null}
                {version.file ? (
                  <a href={downloadHref(current.id, version.id)}>
                    <Trans
                      i18nKey="judgeWorkspace.download"
                      values={{ name: version.file.name, details: formatSize(version.file.size, t, language) }}
                      components={{ name: <bdi /> }}
                    />
                  </a>
                ) : version.fileDropped ? (
                  <p className="muted">{t("judgeWorkspace.fileDropped", { kept: keptVersionFiles })}</p>
                ) : null}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </article>
  );
}

function FileView({ submissionId, file }: { submissionId: number; file: NonNullable<Current["file"]> }) {
  const { t, language } = useT();
  const download = (
    <a href={downloadHref(submissionId)} className="judge__download">
      <Trans
        i18nKey="judgeWorkspace.download"
        values={{ name: file.name, details: file.type ? `${file.type}, ${formatSize(file.size, t, language)}` : formatSize(file.size, t, language) }}
        components={{ name: <bdi /> }}
      />
    </a>
  );
  switch (file.view.kind) {
    case "image":
      return (
        <figure className="judge__file">
          <a href={inlineHref(submissionId)} target="_blank" rel="noopener noreferrer">
            <img src={inlineHref(submissionId)} alt={t("judgeWorkspace.imageAlt", { name: file.name })} className="judge__image" />
          </a>
          <figcaption>{download}</figcaption>
        </figure>
      );
    case "pdf":
      return (
        <figure className="judge__file">
          <iframe src={inlineHref(submissionId)} title={t("judgeWorkspace.pdfTitle", { name: file.name })} className="judge__pdf" />
          <figcaption>
            <a href={inlineHref(submissionId)} target="_blank" rel="noopener noreferrer">
              {t("judgeWorkspace.openPdf")}
            </a>{" "}
            · {download}
          </figcaption>
        </figure>
      );
    case "text":
      return (
        <figure className="judge__file">
          <pre className="judge__code" dir="ltr" tabIndex={0} aria-label={t("judgeWorkspace.fileLabel", { name: file.name })}>
            <code>{file.text?.content}</code>
          </pre>
          <figcaption>
            {file.text?.reordering ? t("judgeWorkspace.reordering") : ""}
            {file.text?.truncated ? t("judgeWorkspace.truncated") : ""}
            {download}
          </figcaption>
        </figure>
      );
    default:
      return (
        <p className="judge__file">
          {download} <span className="muted">{file.previewFailed ? t("judgeWorkspace.previewFailed") : t("judgeWorkspace.notShown")}</span>
        </p>
      );
  }
}

function ScorePanel({ current, next, inQueue, timeZone, formAction }: { current: Current; next: number | null; inQueue: boolean; timeZone: string; formAction: string }) {
  const { t } = useT();
  const format = useFormats();
  const at = useAt();
  const serverMessage = useServerMessage();
  const answer = useActionData<typeof action>();
  const result = answer && "renewed" in answer ? undefined : answer;
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  // A refusal for this submission comes back with what was typed.
  const mineResult = result?.initialValue?.submissionId === String(current.id) ? result : undefined;
  const errors = mineResult && "error" in mineResult ? mineResult.error : undefined;
  const scoreError = errors?.score?.[0];
  const formError = errors?.[""]?.[0] ?? errors?.submissionId?.[0];
  const typed = (name: string) => {
    const value = mineResult?.initialValue?.[name];
    return typeof value === "string" ? value : undefined;
  };
  // Criterion scores come back nested ("criteria.12" is criteria → 12).
  const typedCriteria = (id: number) => {
    const nested = mineResult?.initialValue?.criteria;
    const value = nested && typeof nested === "object" && !Array.isArray(nested) ? (nested as Record<string, unknown>)[String(id)] : undefined;
    return typeof value === "string" ? value : undefined;
  };
  const points = current.challenge.points;
  const solvedAt = (SOLVE_THRESHOLD_PERCENT * points) / 100;
  const mine = current.mine;
  return (
    <Form method="post" action={formAction} className="judge__score card" aria-labelledby="score-title" key={current.id}>
      <h2 id="score-title">{t("judgeWorkspace.scoreHeading")}</h2>
      <input type="hidden" name="submissionId" value={current.id} />
      <input type="hidden" name="revision" value={current.revisedAt.toISOString()} />
      {current.rubric.length ? (
        <RubricInputs current={current} errors={errors} typed={typedCriteria} />
      ) : (
        <>
          <label htmlFor={SCORE_INPUT} className="field__label">
            {t("judgeWorkspace.scoreRange", { points })}
          </label>
          <input
            id={SCORE_INPUT}
            name="score"
            type="number"
            inputMode="decimal"
            min={0}
            max={points}
            step="0.01"
            required
            autoFocus
            dir="ltr"
            defaultValue={typed("score") ?? (mine ? String(mine.scoreCenti / 100) : "")}
            aria-invalid={scoreError ? true : undefined}
            aria-describedby={`${SCORE_INPUT}-range${scoreError ? ` ${SCORE_INPUT}-error` : ""}`}
            className="field__input judge__score-input"
          />
          <p id={`${SCORE_INPUT}-range`} className="muted judge__range">
            {t("judgeWorkspace.rangeNote", { points, solvedAt: format.points(solvedAt), percent: SOLVE_THRESHOLD_PERCENT })}
          </p>
        </>
      )}
      {scoreError ? (
        <p id={`${SCORE_INPUT}-error`} className="error-list__item" role="alert">
          {serverMessage(scoreError)}
        </p>
      ) : null}
      <label htmlFor="judge-comment" className="field__label">
        {t("judgeWorkspace.comment")}
      </label>
      <input id="judge-comment" name="comment" type="text" dir="auto" maxLength={2000} defaultValue={typed("comment") ?? mine?.comment ?? ""} className="field__input" />
      <label htmlFor="judge-verdict" className="field__label">
        {t("judgeWorkspace.status")}
      </label>
      <select id="judge-verdict" name="verdict" defaultValue={typed("verdict") ?? ""} className="field__input field__input--select">
        <option value="">{current.status === "pending" ? t("judgeWorkspace.verdict.byDefault") : t("judgeWorkspace.verdict.keep", { status: t(submissionStatusKeys[current.status]) })}</option>
        <option value="approved">{t("judgeWorkspace.verdict.approve")}</option>
        <option value="rejected">{t("judgeWorkspace.verdict.reject")}</option>
        <option value="reviewed">{t("judgeWorkspace.verdict.review")}</option>
      </select>
      {formError ? (
        <p className="error-list__item" role="alert">
          {serverMessage(formError)}
        </p>
      ) : null}
      <ActionButton type="submit" disabled={sending}>
        {sending ? t("judgeWorkspace.saving") : next !== null || !inQueue ? t("judgeWorkspace.saveNext") : t("judgeWorkspace.save")}
      </ActionButton>
      {mine ? <p className="muted">{t("judgeWorkspace.yourScore", { score: format.points(mine.scoreCenti / 100), when: at(mine.scoredAt, timeZone) })}</p> : null}
    </Form>
  );
}

function Shortcuts() {
  const { t } = useT();
  return (
    <details className="judge__shortcuts" open>
      <summary>{t("judgeWorkspace.shortcuts")}</summary>
      <dl>
        {judgeShortcuts.map((shortcut) => (
          <div key={shortcut.code}>
            <dt>
              <kbd>{shortcut.key}</kbd>
            </dt>
            <dd>{t(shortcutKeys[shortcut.code])}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">{t("judgeWorkspace.lettersNote")}</p>
    </details>
  );
}

function QueueList({ data: { queue, current, query, backlog } }: { data: LoaderData }) {
  const { t } = useT();
  const shown = queue.length;
  return (
    <section aria-labelledby="queue-title" className="judge__queue">
      <h2 id="queue-title">
        {t("judgeWorkspace.queue")}{" "}
        <span className="muted">({shown < backlog.total && !isFiltered(query) ? t("judgeWorkspace.queueOf", { shown, total: backlog.total }) : shown})</span>
      </h2>
      {queue.length === 0 ? (
        <p className="muted">{t("judgeWorkspace.queueEmpty")}</p>
      ) : (
        <ol className="judge__queue-list">
          {queue.map((item) => (
            <li key={item.id} className={item.id === current?.id ? "judge__queue-item judge__queue-item--current" : "judge__queue-item"}>
              <Link to={workspaceHref({ ...filtersOf(query), s: item.id })} aria-current={item.id === current?.id ? "page" : undefined}>
                <bdi>{item.team}</bdi> — <bdi>{item.challenge}</bdi>
              </Link>
              <span className="muted">
                {" "}
                {t("judgeWorkspace.gateShort", { gate: item.wave ?? "—" })} · {item.category}
              </span>
              {item.changedSinceScore ? <span className="judge__badge">{t("judgeWorkspace.changedBadge")}</span> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function History({ data: { history, timeZone, query } }: { data: LoaderData }) {
  const { t } = useT();
  const format = useFormats();
  const at = useAt();
  return (
    <section aria-labelledby="history-title" className="judge__history card">
      <h2 id="history-title">{t("judgeWorkspace.history")}</h2>
      {history.length === 0 ? (
        <p className="muted">{t("judgeWorkspace.historyEmpty")}</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("judgeWorkspace.column.when")}</th>
                <th scope="col">{t("judgeWorkspace.column.team")}</th>
                <th scope="col">{t("judgeWorkspace.column.challenge")}</th>
                <th scope="col">{t("judgeWorkspace.column.score")}</th>
                <th scope="col">{t("judgeWorkspace.column.comment")}</th>
              </tr>
            </thead>
            <tbody>
              {history.map((entry) => (
                <tr key={entry.submissionId}>
                  <td className="nowrap">
                    <time dateTime={entry.scoredAt.toISOString()}>{at(entry.scoredAt, timeZone)}</time>
                  </td>
                  <td dir="auto">{entry.team}</td>
                  <td dir="auto">
                    <Link to={workspaceHref({ ...filtersOf(query), s: entry.submissionId })}>{entry.challenge}</Link>
                  </td>
                  <td className="num" dir="ltr">
                    {format.points(entry.scoreCenti / 100)} / {entry.points}
                  </td>
                  <td className="judge__prose" dir="auto">
                    {entry.comment ?? ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * A rubric challenge's score box: one input a criterion (the first has the focus), and the score they make,
 * worked out as the judge types (the server works it out again: app/modules/scoring/rubric.ts).
 */
function RubricInputs({
  current,
  errors,
  typed,
}: {
  current: Current;
  errors: Record<string, string[] | null | undefined> | undefined;
  typed: (criterionId: number) => string | undefined;
}) {
  const { t } = useT();
  const format = useFormats();
  const serverMessage = useServerMessage();
  const initial = (id: number) => typed(id) ?? (current.mine?.criteria[id] !== undefined ? String(current.mine.criteria[id] / 100) : "");
  const [values, setValues] = useState<Record<number, string>>(() => Object.fromEntries(current.rubric.map((criterion) => [criterion.id, initial(criterion.id)])));
  const given = new Map<number, number>();
  for (const criterion of current.rubric) {
    const value = Number(values[criterion.id]);
    if (values[criterion.id]?.trim() && Number.isFinite(value) && value >= 0 && value <= criterion.maxPoints) given.set(criterion.id, Math.round(value * 100));
  }
  const total = given.size === current.rubric.length ? rubricScoreCenti(current.challenge.points, current.rubric, given) / 100 : null;
  return (
    <fieldset className="judge__rubric">
      <legend>{t("judgeWorkspace.rubric")}</legend>
      {current.rubric.map((criterion, index) => {
        const id = index === 0 ? SCORE_INPUT : `criterion-${criterion.id}`;
        const error = errors?.[`criteria.${criterion.id}`]?.[0];
        return (
          <div key={criterion.id} className="judge__criterion">
            <label htmlFor={id} className="field__label">
              <Trans
                i18nKey="judgeWorkspace.criterion"
                values={{ name: criterion.name, max: criterion.maxPoints, weight: criterion.weight }}
                components={{ name: <bdi /> }}
              />
            </label>
            <input
              id={id}
              name={`criteria.${criterion.id}`}
              type="number"
              inputMode="decimal"
              min={0}
              max={criterion.maxPoints}
              step="0.01"
              required
              autoFocus={index === 0}
              dir="ltr"
              defaultValue={initial(criterion.id)}
              onInput={(event) => {
                const value = event.currentTarget.value;
                setValues((before) => ({ ...before, [criterion.id]: value }));
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              className="field__input"
            />
            {error ? (
              <p id={`${id}-error`} className="error-list__item" role="alert">
                {serverMessage(error)}
              </p>
            ) : null}
          </div>
        );
      })}
      <p className="judge__range" aria-live="polite">
        {total === null
          ? t("judgeWorkspace.rubricPending", { points: current.challenge.points })
          : t("judgeWorkspace.rubricTotal", { score: format.points(total), points: current.challenge.points })}
      </p>
    </fieldset>
  );
}
