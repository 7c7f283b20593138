import { Form, Link } from "@remix-run/react";
import { Trans } from "react-i18next";
import { useT } from "~/components/i18n";
import { categoryLabel } from "~/components/participant/category";
import { ActionButton } from "~/components/ui/action-button";
import { isFiltered, workspaceHref, type WorkspaceQuery } from "~/modules/judging/schema";
import type { WorkspacePage } from "./format";

export function BacklogCounts({ data: { backlog, query } }: { data: WorkspacePage }) {
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

export function QueueFilters({ query, challenges }: { query: WorkspaceQuery; challenges: WorkspacePage["challengeChoices"] }) {
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
