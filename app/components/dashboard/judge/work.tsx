import { Trans } from "react-i18next";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { categoryLabel, submissionStatusKeys } from "~/components/participant/category";
import { downloadHref, formatSize, inlineHref, useAt, type Current, type WorkspacePage } from "./format";
import { SignalsPanel } from "./signals";

export function Work({
  current,
  timeZone,
  blind,
  keptVersionFiles,
  signals = [],
}: {
  current: Current;
  timeZone: string;
  blind: boolean;
  keptVersionFiles: number;
  signals?: WorkspacePage["signals"];
}) {
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
      <SignalsPanel signals={signals} timeZone={timeZone} />
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

export function FileView({ submissionId, file }: { submissionId: number; file: NonNullable<Current["file"]> }) {
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
