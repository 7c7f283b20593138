import { Link } from "@remix-run/react";
import { Trans } from "react-i18next";
import { useFormats } from "~/components/realtime/format";
import { useRevalidateOn } from "~/components/realtime/revalidate-on";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { useClaimRenewal } from "~/hooks/use-claim-renewal";
import { useJudgeShortcuts } from "~/hooks/use-judge-shortcuts";
import { filtersOf, isFiltered, workspaceHref } from "~/modules/judging/schema";
import { messages } from "~/modules/messages";
import { BacklogCounts, QueueFilters } from "./backlog";
import { inlineHref, SCORE_INPUT, type WorkspacePage } from "./format";
import { History } from "./history";
import { QueueList, Shortcuts } from "./queue";
import { ScorePanel } from "./score-panel";
import { Work } from "./work";

/**
 * The judge's workspace (/dashboard/judge, docs/decisions/019-judge-workspace.md): one submission with
 * everything needed to score it, the score box, the moves, the queue and the shortcuts beside it, the
 * backlog and filters above, the judge's history below.
 */
export function JudgeWorkspace({ data: loaded }: { data: WorkspacePage }) {
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
          <Work current={current} timeZone={loaded.timeZone} blind={loaded.blind} keptVersionFiles={loaded.keptVersionFiles} signals={loaded.signals} />
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
            <QueueList data={loaded} />
            <Shortcuts />
          </aside>
        </div>
      ) : (
        <p className="judge__empty card">{isFiltered(query) ? t("judgeWorkspace.emptyFiltered") : t("judgeWorkspace.empty")}</p>
      )}
      <History data={loaded} />
    </section>
  );
}
