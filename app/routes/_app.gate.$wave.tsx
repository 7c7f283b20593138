import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { categoryLabel, difficultyLabel } from "~/components/participant/category";
import { Countdown } from "~/components/participant/countdown";
import { FirstSolvers } from "~/components/participant/first-solvers";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { pageTitle } from "~/modules/i18n/i18n";
import { GateArt } from "~/components/participant/gate-art";
import { LoadErrorPage } from "~/components/status-page";
import { ActionLink } from "~/components/ui/action-button";
import { Message } from "~/components/ui/message";
import { TitleBar } from "~/components/ui/title-bar";
import { messages } from "~/modules/messages";
import { gateBoardIn, getGateBoard, withFlagFigures } from "~/modules/participant/board.server";
import { languageOf } from "~/glue/language.server";
import { requirePage } from "~/glue/auth.server";
import { pageReadFor } from "~/glue/viewer-badges.server";
import { loadOrFail } from "~/glue/load.server";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: data ? pageTitle(matches, "meta.gate", { name: data.board.gate.title }) : pageTitle(matches, "meta.gateUnknown") },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const wave = Number(params.wave);
  const now = new Date();
  const board = /^[1-5]$/.test(params.wave ?? "")
    ? await loadOrFail(
        async () => {
          const { versions, rows } = await pageReadFor(context, user, request, "gateResults", wave);
          const found = await getGateBoard(wave, user.teamId, now, versions, rows);
          // In the viewer's language (docs/domain.md "Event content in two languages").
          return found && gateBoardIn(await withFlagFigures(found, user), languageOf(request));
        },
        messages.participant.gateLoadFailed,
        { wave },
      )
    : null;
  if (!board) throw new Response("Not found", { status: 404 });
  return { board, serverNow: now.toISOString() };
}

/** The gate's loading animation lasts 5 s for waves 3 and 4, 4.1 s otherwise. */
const loadingMs = (wave: number) => (wave === 3 || wave === 4 ? 5000 : 4100);

export default function GateBoard() {
  const { board, serverNow } = useLoaderData<typeof loader>();
  const { revalidate } = useRevalidator();
  const { gate, challenges, solvedPercent, submissions } = board;
  const { t } = useT();
  const format = useFormats();
  return (
    <main className={`page participant-page gate-board gate-board--${gate.number}`}>
      {challenges ? (
        <>
          {/* CSS only: without JavaScript it still ends, and reduced motion or no JS skips it. */}
          <div
            className="gate-loader"
            aria-hidden="true"
            style={{ ["--gate-loading" as string]: `${loadingMs(gate.number)}ms` }}
          >
            <GateArt gate={gate.number} className="gate-loader__art" />
            <span className="gate-loader__text">{t("common.loading")}</span>
          </div>
          <noscript dangerouslySetInnerHTML={{ __html: "<style>.gate-loader{display:none}</style>" }} />
        </>
      ) : null}
      <div className="gate-board__bar">
        <ActionLink to="/gates" variant="subtle">
          {t("common.back")}
        </ActionLink>
      </div>
      <TitleBar title={gate.title} written />
      {challenges && !submissions.open && submissions.closesAt ? (
        <Message tone="error" className="submissions-closed">
          {t("participant.submissionsClosedAt", { when: format.dayTime(submissions.closesAt, submissions.timeZone) })}
        </Message>
      ) : null}
      {challenges ? (
        <>
          <figure className="gate-progress">
            <GateArt gate={gate.number} className="gate-progress__art" />
            <div className="gate-progress__cover" style={{ width: `${100 - solvedPercent}%` }} aria-hidden="true" />
            <figcaption>{t("gate.solvedPercent", { percent: solvedPercent })}</figcaption>
          </figure>
          {challenges.length === 0 ? (
            <p className="lead text-center">{t("gate.noChallenges")}</p>
          ) : (
            <ul className="challenge-grid list-reset">
              {challenges.map((challenge, index) => {
                const linked = challenge.solved && challenges[index + 1]?.solved;
                return (
                  <li
                    key={challenge.id}
                    className={[
                      "card challenge-card",
                      challenge.solved ? "challenge-card--solved" : null,
                      linked ? "challenge-card--linked" : null,
                    ]
                      .filter(Boolean)
                      .join(" ")}
                  >
                    <h2 className="challenge-card__title">
                      <bdi>{challenge.title}</bdi>
                    </h2>
                    <dl className="challenge-card__facts">
                      <div>
                        <dt>{t("challenge.category")}</dt>
                        <dd>{categoryLabel(challenge.category, t)}</dd>
                      </div>
                      <div>
                        <dt>{t("challenge.points")}</dt>
                        <dd>
                          <span className="ltr">{format.points(challenge.flag?.value ?? challenge.points)}</span>
                        </dd>
                      </div>
                      <div>
                        <dt>{t("challenge.difficulty")}</dt>
                        <dd>{difficultyLabel(challenge.difficulty, t)}</dd>
                      </div>
                      <div>
                        <dt>{t("challenge.solved")}</dt>
                        <dd>{challenge.solved ? t("common.yes") : t("common.no")}</dd>
                      </div>
                      {challenge.flag ? (
                        <div>
                          <dt>{t("flag.solves")}</dt>
                          <dd>
                            <span className="ltr">{challenge.flag.solves}</span>
                          </dd>
                        </div>
                      ) : null}
                    </dl>
                    {challenge.flag && challenge.flag.firsts.length > 0 ? <FirstSolvers firsts={challenge.flag.firsts} /> : null}
                    <p className="challenge-card__status">{challenge.solved ? t("gate.solvedNote") : t("gate.unsolvedNote")}</p>
                    {challenge.locked ? (
                      <p className="challenge-card__locked">{t("challenge.lockedUntil", { titles: challenge.locked.map((title) => title ?? t("challenge.notOpenYet")).join(", ") })}</p>
                    ) : (
                      <ActionLink to={`/submition/${challenge.id}`} aria-label={t("common.nextTo", { name: challenge.title })}>
                        {t("common.next")}
                      </ActionLink>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </>
      ) : (
        <section className="card gate-closed" aria-labelledby="gate-closed-heading">
          <GateArt gate={gate.number} className="gate-closed__art" />
          <h2 id="gate-closed-heading">{t("gate.sealed")}</h2>
          <p className="gate-closed__countdown">
            <Countdown target={gate.opensAt} serverNow={serverNow} onZero={revalidate} label={t("gate.opensIn")} />
          </p>
        </section>
      )}
    </main>
  );
}

/** The gate page shows "Error: {message}" when it cannot load; a 404 stays the 404 page. */
export function ErrorBoundary() {
  const { t } = useT();
  return <LoadErrorPage title={t("gate.errorTitle")} className="gate-board" />;
}
