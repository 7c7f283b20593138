import { useT } from "~/components/i18n";

/** What the challenge form's answers box takes, one answer a line (app/modules/flags/answers.ts). */
export function FlagAnswersHelp({ id }: { id: string }) {
  const { t } = useT();
  return (
    <div id={id} className="muted">
      <p>{t("challengesPage.answersHelp")}</p>
      <ul>
        <li>
          <code dir="ltr">exact: GK{"{…}"}</code> {t("challengesPage.answersExact")}
        </li>
        <li>
          <code dir="ltr">any case: gk{"{…}"}</code> {t("challengesPage.answersAnyCase")}
        </li>
        <li>
          <code dir="ltr">regex: GK\{"{"}[a-z]+\{"}"}</code> {t("challengesPage.answersRegex")}
        </li>
        <li>
          <code dir="ltr">per team: GK{"{<hmac>}"}</code> {t("challengesPage.answersPerTeam", { slot: "<hmac>" })}
        </li>
      </ul>
      <p>{t("challengesPage.answersBare")}</p>
    </div>
  );
}
