import { Form, useNavigation } from "@remix-run/react";
import { useT } from "~/components/i18n";
import { ActionButton } from "~/components/ui/action-button";
import { Field, SelectField } from "~/components/ui/field";
import { useServerMessage } from "~/components/server-message";
import type { TriedAnswer } from "~/modules/flags/attempts-query";

/**
 * An admin tries an answer on a flag challenge (docs/domain.md "Flag challenges"): which accepted answer it
 * matches, as a team for a per-team one; nothing is recorded (no attempt, no solve). A plain POST to the page,
 * so it works without JavaScript; the page comes back with the verdict and what was typed.
 */
export function TryAnswer({
  challenges,
  teams,
  tried,
}: {
  challenges: ReadonlyArray<{ id: number; title: string; perTeam: boolean }>;
  teams: ReadonlyArray<{ id: number; name: string }>;
  tried: TriedAnswer | null;
}) {
  const { t } = useT();
  const message = useServerMessage();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "try";
  if (challenges.length === 0) return null;
  return (
    <section className="card stack" aria-labelledby="try-answer-heading">
      <h2 id="try-answer-heading">{t("attemptsPage.try.heading")}</h2>
      <p className="muted">{t("attemptsPage.try.hint")}</p>
      <Form method="post" className="dash-filters" aria-labelledby="try-answer-heading">
        <input type="hidden" name="intent" value="try" />
        <SelectField label={t("attemptsPage.try.challenge")} selectProps={{ id: "try-challenge", name: "challengeId", required: true, defaultValue: tried?.values.challengeId ?? challenges[0].id }}>
          {challenges.map((challenge) => (
            <option key={challenge.id} value={challenge.id}>
              {challenge.title}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("attemptsPage.try.asTeam")} selectProps={{ id: "try-team", name: "teamId", defaultValue: tried?.values.teamId ?? "" }}>
          <option value="">{t("attemptsPage.try.noTeam")}</option>
          {teams.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </SelectField>
        <Field
          label={t("attemptsPage.try.answer")}
          inputProps={{ id: "try-answer", name: "answer", type: "text", required: true, autoComplete: "off", spellCheck: false, dir: "ltr", defaultValue: tried?.values.answer ?? "" }}
          errors={tried && !tried.ok ? [message(tried.message)] : undefined}
        />
        <ActionButton type="submit" variant="subtle" disabled={busy}>
          {busy ? t("attemptsPage.try.trying") : t("attemptsPage.try.submit")}
        </ActionButton>
      </Form>
      {/* The verdict, read out when it comes (a refusal is said beside the answer). */}
      <p role="status" className={tried?.ok ? (tried.matched !== null ? "try-answer__result try-answer__result--match" : "try-answer__result") : "visually-hidden"}>
        {tried?.ok ? message(tried.message) : ""}
      </p>
    </section>
  );
}
