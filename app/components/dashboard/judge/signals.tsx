import { useT } from "~/components/i18n";
import { inlineHref, useAt, type WorkspacePage } from "./format";

type Signal = WorkspacePage["signals"][number];

/**
 * A submission's integrity signals beside it (docs/domain.md "Integrity signals"): "87 % similar to Team X's
 * version of 14:02", both versions side by side with the shared lines marked (two images: both pictures). The verdict is people's: a judge
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
            {t(SUMMARY_KEYS[signal.kind] ?? "integrity.similarTo", {
              percent: signal.similarity,
              team: signal.otherTeam,
              when: signal.otherVersionAt ? at(signal.otherVersionAt, timeZone) : "—",
            })}
            {signal.status === "confirmed" ? ` · ${t("integrity.status.confirmed")}` : ""}
          </summary>
          {signal.images ? (
            <>
              {signal.distance !== null ? <p className="muted">{t("integrity.imageDistance", { bits: signal.distance })}</p> : null}
              <div className="judge__compare">
                <Picture title={t("integrity.thisVersion")} name={signal.fileName} href={inlineHref(signal.images.mine.submissionId, signal.images.mine.versionId ?? undefined)} />
                <Picture
                  title={t("integrity.otherVersion", { team: signal.otherTeam })}
                  name={signal.otherFileName}
                  href={inlineHref(signal.images.theirs.submissionId, signal.images.theirs.versionId ?? undefined)}
                />
              </div>
            </>
          ) : signal.mine && signal.theirs ? (
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

/** Each kind's summary text key, written out (the translation files' check finds them in the code). */
const SUMMARY_KEYS: Record<string, string> = { similar: "integrity.similarTo", "identical-file": "integrity.identicalTo", image: "integrity.imageTo" };

function Picture({ title, name, href }: { title: string; name: string | null; href: string }) {
  const { t } = useT();
  return (
    <figure className="judge__compare-side">
      <figcaption>{title}</figcaption>
      <a href={href} target="_blank" rel="noopener noreferrer">
        <img src={href} alt={t("judgeWorkspace.imageAlt", { name: name ?? "—" })} className="judge__image" loading="lazy" />
      </a>
    </figure>
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
