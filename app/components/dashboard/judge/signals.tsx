import { useT } from "~/components/i18n";
import { useAt, type WorkspacePage } from "./format";

type Signal = WorkspacePage["signals"][number];

/**
 * A submission's integrity signals beside it (docs/domain.md "Integrity signals"): "87 % similar to Team X's
 * version of 14:02", both versions side by side with the shared lines marked. The verdict is people's: a judge
 * reads, an admin decides on /dashboard/signals.
 */
export function SignalsPanel({ signals, timeZone }: { signals: Signal[]; timeZone: string }) {
  const { t } = useT();
  const at = useAt();
  if (signals.length === 0) return null;
  return (
    <section className="judge__signals" aria-labelledby="signals-title">
      <h3 id="signals-title">{t("integrity.workspaceHeading")}</h3>
      <p className="muted">{t("integrity.workspaceHint")}</p>
      {signals.map((signal) => (
        <details key={signal.id} className="judge__signal" open={signals.length === 1} data-signal-id={signal.id}>
          <summary>
            {t(signal.kind === "identical-file" ? "integrity.identicalTo" : "integrity.similarTo", {
              percent: signal.similarity,
              team: signal.otherTeam,
              when: signal.otherVersionAt ? at(signal.otherVersionAt, timeZone) : "—",
            })}
            {signal.status === "confirmed" ? ` · ${t("integrity.status.confirmed")}` : ""}
          </summary>
          {signal.mine && signal.theirs ? (
            <div className="judge__compare">
              <Side title={t("integrity.thisVersion")} lines={signal.mine} />
              <Side title={t("integrity.otherVersion", { team: signal.otherTeam })} lines={signal.theirs} />
            </div>
          ) : (
            <p className="muted">{t("integrity.sameFile", { name: signal.fileName ?? "—", other: signal.otherFileName ?? "—" })}</p>
          )}
        </details>
      ))}
    </section>
  );
}

function Side({ title, lines }: { title: string; lines: NonNullable<Signal["mine"]> }) {
  const { t } = useT();
  return (
    <figure className="judge__compare-side">
      <figcaption>{title}</figcaption>
      <pre className="judge__code" dir="ltr" tabIndex={0} aria-label={title}>
        <code>
          {lines.map((line, index) =>
            line.matched ? (
              <mark key={index} title={t("integrity.sharedLine")}>
                {line.text + "\n"}
              </mark>
            ) : (
              <span key={index}>{line.text + "\n"}</span>
            ),
          )}
        </code>
      </pre>
    </figure>
  );
}
