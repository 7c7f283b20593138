import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { categoryLabel } from "~/components/participant/category";
import { Countdown } from "~/components/participant/countdown";
import { formatDayTime } from "~/components/realtime/format";
import { GateArt } from "~/components/participant/gate-art";
import { LoadErrorPage } from "~/components/status-page";
import { ActionLink } from "~/components/ui/action-button";
import { Message } from "~/components/ui/message";
import { TitleBar } from "~/components/ui/title-bar";
import { messages } from "~/modules/messages";
import { getGateBoard } from "~/modules/participant/board.server";
import { requirePage } from "~/glue/auth.server";
import { eventVersionsFor } from "~/glue/viewer-badges.server";
import { loadOrFail } from "~/glue/load.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.board.gate.title ?? "Gate"} · Gatekeeper` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const wave = Number(params.wave);
  const now = new Date();
  const versions = await eventVersionsFor(request, user);
  const board = /^[1-5]$/.test(params.wave ?? "")
    ? await loadOrFail(() => getGateBoard(wave, user.teamId, now, versions), messages.participant.gateLoadFailed, { wave })
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
            <span className="gate-loader__text">Loading...</span>
          </div>
          <noscript dangerouslySetInnerHTML={{ __html: "<style>.gate-loader{display:none}</style>" }} />
        </>
      ) : null}
      <div className="gate-board__bar">
        <ActionLink to="/gates" variant="subtle">
          Back
        </ActionLink>
      </div>
      <TitleBar title={gate.title} />
      {challenges && !submissions.open && submissions.closesAt ? (
        <Message tone="error" className="submissions-closed">
          {messages.participant.submissionsClosedAt(formatDayTime(submissions.closesAt, submissions.timeZone))}
        </Message>
      ) : null}
      {challenges ? (
        <>
          <figure className="gate-progress">
            <GateArt gate={gate.number} className="gate-progress__art" />
            <div className="gate-progress__cover" style={{ width: `${100 - solvedPercent}%` }} aria-hidden="true" />
            <figcaption>{`${solvedPercent}% of this gate solved`}</figcaption>
          </figure>
          {challenges.length === 0 ? (
            <p className="lead text-center">No challenges in this gate yet.</p>
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
                    <h2 className="challenge-card__title">{challenge.title}</h2>
                    <dl className="challenge-card__facts">
                      <div>
                        <dt>Category</dt>
                        <dd>{categoryLabel(challenge.category)}</dd>
                      </div>
                      <div>
                        <dt>Points</dt>
                        <dd>{challenge.points}</dd>
                      </div>
                      <div>
                        <dt>Difficulty</dt>
                        <dd>{challenge.difficulty ?? "—"}</dd>
                      </div>
                      <div>
                        <dt>Solved</dt>
                        <dd>{challenge.solved ? "Yes" : "No"}</dd>
                      </div>
                    </dl>
                    <p className="challenge-card__status">{challenge.solved ? "you got greater then 65%" : "do your best"}</p>
                    <ActionLink to={`/submition/${challenge.id}`} aria-label={`Next: ${challenge.title}`}>
                      Next
                    </ActionLink>
                  </li>
                );
              })}
            </ul>
          )}
        </>
      ) : (
        <section className="card gate-closed" aria-labelledby="gate-closed-heading">
          <GateArt gate={gate.number} className="gate-closed__art" />
          <h2 id="gate-closed-heading">This gate is still sealed</h2>
          <p className="gate-closed__countdown">
            <Countdown target={gate.opensAt} serverNow={serverNow} onZero={revalidate} label="Opens in" />
          </p>
        </section>
      )}
    </main>
  );
}

/** The gate page shows "Error: {message}" when it cannot load; a 404 stays the 404 page. */
export function ErrorBoundary() {
  return <LoadErrorPage title="Gate" className="gate-board" />;
}
