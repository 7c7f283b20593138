import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useRevalidateOn } from "~/components/realtime/revalidate-on";
import { formatDayTime, formatPoints } from "~/components/realtime/format";
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
import { blindRows, hidesNames } from "~/modules/judging/blind.server";
import { blindSubmission, neighbours, submissionForJudge } from "~/modules/judging/workspace.server";
import { badRequest } from "~/glue/responses.server";
import { categoryLabels } from "~/modules/challenges/schema";
import { messages } from "~/modules/messages";
import { rubricScoreCenti } from "~/modules/scoring/rubric";
import { SOLVE_THRESHOLD_PERCENT } from "~/modules/scoring/rules";
import { scoreSubmission } from "~/modules/scoring/scoring.server";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import { KEPT_VERSION_FILES } from "~/modules/submissions/submit.server";
import styles from "~/styles/judge.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Judging · Gatekeeper Dashboard" }];

export const handle = { loadFailed: "The judging workspace could not be loaded." };

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
  const blind = hidesNames(settings, judge.role);
  const current = found && blind ? blindSubmission(found) : found;
  const { previous, next } = neighbours(queue, current?.id ?? null);
  const shownHistory = blindRows(history, blind);
  const saved = query.saved === undefined ? undefined : shownHistory.find((entry) => entry.submissionId === query.saved);
  return {
    query,
    queue: blindRows(queue, blind),
    backlog,
    history: shownHistory,
    current,
    blind,
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

function formatSize(bytes: number | null): string {
  if (bytes === null) return "size unknown";
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const at = (date: Date, timeZone: string) => formatDayTime(date.toISOString(), timeZone);

export default function JudgeWorkspace() {
  const loaded = useLoaderData<typeof loader>();
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
        <h1 id="judge-title">Judging</h1>
        <BacklogCounts data={loaded} />
        <QueueFilters query={query} challenges={loaded.challengeChoices} />
      </header>
      {loaded.saved ? (
        <p className="judge__saved" role="status">
          Score saved: {formatPoints(loaded.saved.scoreCenti / 100)} for {loaded.saved.team} on {loaded.saved.challenge}.
        </p>
      ) : null}
      {loaded.missing ? <p role="alert">{messages.scoring.submissionNotFound}.</p> : null}
      {claimLost ? (
        <p role="alert" className="judge__changed">
          Your hold on this submission lapsed: another judge may be scoring it. Your score still counts if you save it.
        </p>
      ) : null}
      {current ? (
        <div className="judge__grid">
          <Work current={current} timeZone={loaded.timeZone} blind={loaded.blind} keptVersionFiles={loaded.keptVersionFiles} />
          <aside className="judge__side" aria-label="Score and queue">
            <ScorePanel
              current={current}
              next={next}
              inQueue={loaded.inQueue}
              timeZone={loaded.timeZone}
              formAction={workspaceHref({ ...filtersOf(query), s: current.id })}
            />
            <nav className="judge__moves" aria-label="Queue moves">
              {hrefFor(previous) ? <Link to={hrefFor(previous)!}>← Previous (B)</Link> : <span className="muted">← Previous</span>}
              {skipHref ? <Link to={skipHref}>Skip (S) →</Link> : <span className="muted">Skip →</span>}
            </nav>
            <Shortcuts />
            <QueueList data={loaded} />
          </aside>
        </div>
      ) : (
        <p className="judge__empty card">
          {isFiltered(query) ? "Nothing left to score with these filters." : "Nothing left to score: every submission has your score."}
        </p>
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
  const chip = (label: string, count: number, to: Partial<WorkspaceQuery>, active: boolean) => (
    <li key={label}>
      <Link to={workspaceHref(to)} className={`judge__chip${active ? " judge__chip--active" : ""}`} aria-current={active ? "true" : undefined}>
        {label} <strong>{count}</strong>
      </Link>
    </li>
  );
  return (
    <div className="judge__backlog" aria-label="Left to score">
      <p className="judge__total">
        <strong data-testid="backlog-total">{backlog.total}</strong> left to score
      </p>
      <ul className="judge__chips" aria-label="Left to score per gate">
        {([1, 2, 3, 4, 5] as const).map((gate) => chip(`Gate ${gate}`, backlog.byGate[gate], { gate, category: query.category }, query.gate === gate))}
      </ul>
      <ul className="judge__chips" aria-label="Left to score per category">
        {(["AI", "CS", "PS", "GD"] as const).map((category) =>
          chip(categoryLabels[category], backlog.byCategory[category], { gate: query.gate, category }, query.category === category),
        )}
      </ul>
    </div>
  );
}

function QueueFilters({ query, challenges }: { query: WorkspaceQuery; challenges: LoaderData["challengeChoices"] }) {
  return (
    <Form method="get" className="judge__filters" aria-label="Filter the queue">
      <label>
        Gate{" "}
        <select name="gate" defaultValue={query.gate ?? ""} className="field__input field__input--select">
          <option value="">All gates</option>
          {[1, 2, 3, 4, 5].map((gate) => (
            <option key={gate} value={gate}>
              Gate {gate}
            </option>
          ))}
        </select>
      </label>
      <label>
        Category{" "}
        <select name="category" defaultValue={query.category ?? ""} className="field__input field__input--select">
          <option value="">All categories</option>
          {(["AI", "CS", "PS", "GD"] as const).map((category) => (
            <option key={category} value={category}>
              {categoryLabels[category]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Challenge{" "}
        <select name="challenge" defaultValue={query.challenge ?? ""} className="field__input field__input--select">
          <option value="">All challenges</option>
          {challenges.map((challenge) => (
            <option key={challenge.id} value={challenge.id}>
              G{challenge.wave ?? "—"} · {challenge.title}
            </option>
          ))}
        </select>
      </label>
      <ActionButton type="submit" variant="subtle">
        Filter
      </ActionButton>
      {isFiltered(query) ? <Link to="/dashboard/judge">Clear</Link> : null}
    </Form>
  );
}

function Work({ current, timeZone, blind, keptVersionFiles }: { current: Current; timeZone: string; blind: boolean; keptVersionFiles: number }) {
  const { challenge } = current;
  const changed = current.mine !== null && current.mine.scoredAt.getTime() < current.revisedAt.getTime();
  return (
    <article className="judge__work card" aria-labelledby="work-title">
      <p className="judge__meta">
        Gate {challenge.wave ?? "—"} · {categoryLabels[challenge.category]} · {challenge.points} points
      </p>
      <h2 id="work-title">
        <span dir="auto">{current.team}</span> — <span dir="auto">{challenge.title}</span>
      </h2>
      <p className="muted">
        {blind ? "Blind judging: names are hidden until the results are published. " : null}
        Sent by <span dir="auto">{blind ? "a team member" : (current.user ?? "a deleted user")}</span>, last changed <time dateTime={current.revisedAt.toISOString()}>{at(current.revisedAt, timeZone)}</time>
        {current.versions.length > 0 ? ` (version ${current.versions.length + 1})` : ""} · status {current.status} · scored by {current.judgesScored}{" "}
        {current.judgesScored === 1 ? "judge" : "judges"}
      </p>
      {changed ? (
        <p className="judge__changed" role="note">
          Changed since your score: you gave {formatPoints(current.mine!.scoreCenti / 100)} on {at(current.mine!.scoredAt, timeZone)}.{" "}
          <a href="#versions">See the earlier version</a>.
        </p>
      ) : null}
      <section aria-labelledby="challenge-title" className="judge__challenge">
        <h3 id="challenge-title">The challenge</h3>
        <p className="judge__prose" dir="auto">
          {challenge.description}
        </p>
        {challenge.hints ? (
          <>
            <h4>{challenge.category === "GD" ? "Judging Criteria" : "Hints"}</h4>
            <p className="judge__prose" dir="auto">
              {challenge.hints}
            </p>
          </>
        ) : null}
      </section>
      <section aria-labelledby="answer-title" className="judge__answer">
        <h3 id="answer-title">The team's answer</h3>
        {current.text ? (
          <p className="judge__prose judge__text" dir="auto">
            {current.text}
          </p>
        ) : (
          <p className="muted">No text.</p>
        )}
        {current.file ? <FileView submissionId={current.id} file={current.file} /> : <p className="muted">No file.</p>}
      </section>
      {current.versions.length > 0 ? (
        <details id="versions" className="judge__versions" open={changed}>
          <summary>Earlier versions ({current.versions.length})</summary>
          <ol>
            {current.versions.map((version) => (
              <li key={version.id}>
                <p className="muted">
                  Sent <time dateTime={version.submittedAt.toISOString()}>{at(version.submittedAt, timeZone)}</time> by{" "}
                  <span dir="auto">{blind ? "a team member" : (version.user ?? "a deleted user")}</span>, replaced {at(version.replacedAt, timeZone)}
                </p>
                {version.text ? (
                  <p className="judge__prose judge__text" dir="auto">
                    {version.text}
                  </p>
                ) : null}
                {version.file ? (
                  <a href={downloadHref(current.id, version.id)} dir="auto">
                    Download {version.file.name} ({formatSize(version.file.size)})
                  </a>
                ) : version.fileDropped ? (
                  <p className="muted">Its file is no longer kept (the {keptVersionFiles} latest versions keep theirs).</p>
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
  const download = (
    <a href={downloadHref(submissionId)} className="judge__download" dir="auto">
      Download {file.name} ({file.type ? `${file.type}, ` : ""}
      {formatSize(file.size)})
    </a>
  );
  switch (file.view.kind) {
    case "image":
      return (
        <figure className="judge__file">
          <a href={inlineHref(submissionId)} target="_blank" rel="noopener noreferrer">
            <img src={inlineHref(submissionId)} alt={`The submitted image ${file.name}`} className="judge__image" />
          </a>
          <figcaption>{download}</figcaption>
        </figure>
      );
    case "pdf":
      return (
        <figure className="judge__file">
          <iframe src={inlineHref(submissionId)} title={`The submitted PDF ${file.name}`} className="judge__pdf" />
          <figcaption>
            <a href={inlineHref(submissionId)} target="_blank" rel="noopener noreferrer">
              Open the PDF in a new tab
            </a>{" "}
            · {download}
          </figcaption>
        </figure>
      );
    case "text":
      return (
        <figure className="judge__file">
          <pre className="judge__code" dir="ltr" tabIndex={0} aria-label={`The submitted file ${file.name}`}>
            <code>{file.text?.content}</code>
          </pre>
          <figcaption>
            {file.text?.reordering ? "It holds characters that reorder text, shown as ⟨U+…⟩. " : ""}
            {file.text?.truncated ? "The first 64 KB are shown. " : ""}
            {download}
          </figcaption>
        </figure>
      );
    default:
      return (
        <p className="judge__file">
          {download}{" "}
          <span className="muted">{file.previewFailed ? "(the preview could not be read from storage)" : "(this type is not shown in the page)"}</span>
        </p>
      );
  }
}

function ScorePanel({ current, next, inQueue, timeZone, formAction }: { current: Current; next: number | null; inQueue: boolean; timeZone: string; formAction: string }) {
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
      <h2 id="score-title">Your score</h2>
      <input type="hidden" name="submissionId" value={current.id} />
      <input type="hidden" name="revision" value={current.revisedAt.toISOString()} />
      {current.rubric.length ? (
        <RubricInputs current={current} errors={errors} typed={typedCriteria} />
      ) : (
        <>
          <label htmlFor={SCORE_INPUT} className="field__label">
            Score (0 to {points})
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
            defaultValue={typed("score") ?? (mine ? String(mine.scoreCenti / 100) : "")}
            aria-invalid={scoreError ? true : undefined}
            aria-describedby={`${SCORE_INPUT}-range${scoreError ? ` ${SCORE_INPUT}-error` : ""}`}
            className="field__input judge__score-input"
          />
          <p id={`${SCORE_INPUT}-range`} className="muted judge__range">
            {points} points; solved from {formatPoints(solvedAt)} ({SOLVE_THRESHOLD_PERCENT} %). The submission counts the mean of its judges&apos;
            scores.
          </p>
        </>
      )}
      {scoreError ? (
        <p id={`${SCORE_INPUT}-error`} className="error-list__item" role="alert">
          {scoreError}
        </p>
      ) : null}
      <label htmlFor="judge-comment" className="field__label">
        Comment (optional)
      </label>
      <input id="judge-comment" name="comment" type="text" maxLength={2000} defaultValue={typed("comment") ?? mine?.comment ?? ""} className="field__input" />
      <label htmlFor="judge-verdict" className="field__label">
        Status
      </label>
      <select id="judge-verdict" name="verdict" defaultValue={typed("verdict") ?? ""} className="field__input field__input--select">
        <option value="">{current.status === "pending" ? "Mark reviewed (the default)" : `Keep ${current.status}`}</option>
        <option value="approved">Approve</option>
        <option value="rejected">Reject (counts 0)</option>
        <option value="reviewed">Mark reviewed</option>
      </select>
      {formError ? (
        <p className="error-list__item" role="alert">
          {formError}
        </p>
      ) : null}
      <ActionButton type="submit" disabled={sending}>
        {sending ? "Saving..." : next !== null || !inQueue ? "Save and next (Enter)" : "Save (Enter)"}
      </ActionButton>
      {mine ? (
        <p className="muted">
          Your score: {formatPoints(mine.scoreCenti / 100)}, {at(mine.scoredAt, timeZone)}.
        </p>
      ) : null}
    </Form>
  );
}

function Shortcuts() {
  return (
    <details className="judge__shortcuts" open>
      <summary>Keyboard shortcuts</summary>
      <dl>
        {judgeShortcuts.map((shortcut) => (
          <div key={shortcut.code}>
            <dt>
              <kbd>{shortcut.key}</kbd>
            </dt>
            <dd>{shortcut.does}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">Letters work everywhere but in the comment, whatever the keyboard layout.</p>
    </details>
  );
}

function QueueList({ data: { queue, current, query, backlog } }: { data: LoaderData }) {
  const shown = queue.length;
  return (
    <section aria-labelledby="queue-title" className="judge__queue">
      <h2 id="queue-title">
        Queue <span className="muted">({shown < backlog.total && !isFiltered(query) ? `${shown} of ${backlog.total}` : shown})</span>
      </h2>
      {queue.length === 0 ? (
        <p className="muted">Empty.</p>
      ) : (
        <ol className="judge__queue-list">
          {queue.map((item) => (
            <li key={item.id} className={item.id === current?.id ? "judge__queue-item judge__queue-item--current" : "judge__queue-item"}>
              <Link to={workspaceHref({ ...filtersOf(query), s: item.id })} aria-current={item.id === current?.id ? "page" : undefined}>
                <span dir="auto">{item.team}</span> — <span dir="auto">{item.challenge}</span>
              </Link>
              <span className="muted">
                {" "}
                G{item.wave ?? "—"} · {item.category}
              </span>
              {item.changedSinceScore ? <span className="judge__badge">changed since your score</span> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function History({ data: { history, timeZone, query } }: { data: LoaderData }) {
  return (
    <section aria-labelledby="history-title" className="judge__history card">
      <h2 id="history-title">Your scores</h2>
      {history.length === 0 ? (
        <p className="muted">You have not scored anything yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Team</th>
                <th scope="col">Challenge</th>
                <th scope="col">Score</th>
                <th scope="col">Comment</th>
              </tr>
            </thead>
            <tbody>
              {history.map((entry) => (
                <tr key={entry.submissionId}>
                  <td className="nowrap">
                    <time dateTime={entry.scoredAt.toISOString()}>{at(entry.scoredAt, timeZone)}</time>
                  </td>
                  <td dir="auto">{entry.team}</td>
                  <td>
                    <Link to={workspaceHref({ ...filtersOf(query), s: entry.submissionId })}>{entry.challenge}</Link>
                  </td>
                  <td className="num">
                    {formatPoints(entry.scoreCenti / 100)} / {entry.points}
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
      <legend>Rubric: a score for each criterion</legend>
      {current.rubric.map((criterion, index) => {
        const id = index === 0 ? SCORE_INPUT : `criterion-${criterion.id}`;
        const error = errors?.[`criteria.${criterion.id}`]?.[0];
        return (
          <div key={criterion.id} className="judge__criterion">
            <label htmlFor={id} className="field__label">
              {criterion.name} (0 to {criterion.maxPoints}, weight {criterion.weight})
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
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
      <p className="judge__range" aria-live="polite">
        {total === null
          ? `Score: the weighted share of ${current.challenge.points} points, once every criterion has a score.`
          : `Score: ${formatPoints(total)} of ${current.challenge.points}.`}
      </p>
    </fieldset>
  );
}
