/**
 * The settings page's flows (Dashboard → Settings): what the page shows, in the event's wall-clock time,
 * and one function a form. Each save takes the form's checked values, turns wall-clock times into instants
 * in the event's zone (./zoned-time.ts) and answers what the page says next: the toast's title, or the
 * input a refusal goes on. The route maps each form's intent to one of these.
 */
import type { z } from "zod";
import { type Actor } from "../audit/audit.server.ts";
import { readDivisions, updateDivisions } from "../divisions/divisions.server.ts";
import { divisionList, type DivisionsFormSchema } from "../divisions/schema.ts";
import { getFeedbackGates, updateFeedbackGates } from "../judging/feedback.server.ts";
import type { FeedbackGatesSchema, JudgingSettingsSchema } from "../judging/schema.ts";
import { getJudgingSettings, updateJudgingSettings } from "../judging/settings.server.ts";
import { arabicOrNull } from "../i18n/content.ts";
import { messages } from "../messages.ts";
import { isScoreboardFrozen, setScoreboardFrozen } from "../standings/freeze.server.ts";
import { readTeamSizeCap, updateTeamSizeCap } from "../teams/team-size.server.ts";
import type { TeamFormationSchema } from "../teams/schema.ts";
import { readParticipantPasswords, saveParticipantPasswords } from "../auth/password-sign-in.server.ts";
import { readTeamFormation, saveTeamFormation as writeTeamFormation } from "../teams/self-formed.server.ts";
import type { FinalSettingsSchema, FlagSettingsSchema, GateSettingsSchema, MealAddSchema, MealRemoveSchema, SignInSettingsSchema, SubmissionsCloseSchema, TeamSizeCapSchema } from "./schema.ts";
import { addMeal, getEventTimeZone, readEventSettings, removeMeal, updateFinalAt, updateFlagWrongPerMinute, updateGate, updateSubmissionsCloseAt } from "./settings.server.ts";
import { utcToZonedLocal, zonedLocalToUtc } from "./zoned-time.ts";

const m = messages.dashboard;

/** What a save answers: the success toast's title, or a refusal and the input it goes on. */
export type SettingsOutcome = { saved: string } | { refused: { field: string; message: string } };

/** Everything the settings page shows; instants as the event's wall-clock time (datetime-local values). */
export async function readSettingsPage() {
  const [frozen, settings, judging, feedbackGates, divisions, teamSizeCap, teamFormation, signIn] = await Promise.all([
    isScoreboardFrozen(),
    readEventSettings(),
    getJudgingSettings(),
    getFeedbackGates(),
    readDivisions(),
    readTeamSizeCap(),
    readTeamFormation(),
    readParticipantPasswords(),
  ]);
  const zone = settings.timeZone;
  return {
    frozen,
    timeZone: zone,
    finalAt: settings.finalAt ? utcToZonedLocal(settings.finalAt, zone) : "",
    submissionsCloseAt: settings.submissionsCloseAt ? utcToZonedLocal(settings.submissionsCloseAt, zone) : "",
    closesAt: settings.closesAt?.toISOString() ?? null,
    gates: [1, 2, 3, 4, 5].map((number) => {
      const gate = settings.gates.find((row) => row.number === number);
      return {
        number,
        title: gate?.title ?? "",
        description: gate?.description ?? "",
        titleAr: gate?.titleAr ?? "",
        descriptionAr: gate?.descriptionAr ?? "",
        opensAt: gate ? utcToZonedLocal(gate.opensAt, zone) : "",
      };
    }),
    meals: settings.meals.map((meal) => ({ id: meal.id, label: meal.label, at: meal.at.toISOString() })),
    judging,
    feedbackGates,
    divisions,
    teamSizeCap,
    teamFormation,
    signIn,
    flagWrongPerMinute: settings.flagWrongPerMinute,
  };
}

export type SettingsPage = Awaited<ReturnType<typeof readSettingsPage>>;

/** The instant a datetime-local value names in the event's zone; null for a time the zone skips. */
async function eventInstant(local: string): Promise<Date | null> {
  return zonedLocalToUtc(local, await getEventTimeZone());
}

const impossible = (field: string): SettingsOutcome => ({ refused: { field, message: m.instantImpossible } });

/** Freezes or unfreezes the scoreboard; the toast's title. */
export async function freezeScoreboard(actor: Actor, frozen: boolean): Promise<string> {
  await setScoreboardFrozen(actor, frozen);
  return frozen ? messages.freeze.frozen : messages.freeze.unfrozen;
}

export async function saveGate(actor: Actor, value: z.output<typeof GateSettingsSchema>): Promise<SettingsOutcome> {
  const opensAt = await eventInstant(value.opensAt);
  if (!opensAt) return impossible("opensAt");
  await updateGate(actor, value.number, {
    title: value.title,
    description: value.description,
    titleAr: arabicOrNull(value.titleAr),
    descriptionAr: arabicOrNull(value.descriptionAr),
    opensAt,
  });
  return { saved: m.gateSaved(value.number) };
}

export async function saveFinal(actor: Actor, value: z.output<typeof FinalSettingsSchema>): Promise<SettingsOutcome> {
  const finalAt = await eventInstant(value.finalAt);
  if (!finalAt) return impossible("finalAt");
  await updateFinalAt(actor, finalAt);
  return { saved: m.finalSaved };
}

/** Empty: submissions close at the final countdown's instant (which must be set first). */
export async function saveSubmissionsClose(actor: Actor, value: z.output<typeof SubmissionsCloseSchema>): Promise<SettingsOutcome> {
  const local = value.submissionsCloseAt;
  const closeAt = local ? await eventInstant(local) : null;
  if (local && !closeAt) return impossible("submissionsCloseAt");
  if (!(await updateSubmissionsCloseAt(actor, closeAt))) return { refused: { field: "submissionsCloseAt", message: m.submissionsCloseNeedsFinal } };
  return { saved: m.submissionsCloseSaved };
}

export async function saveJudging(actor: Actor, value: z.output<typeof JudgingSettingsSchema>): Promise<SettingsOutcome> {
  const { judgesPerSubmission, blind } = value;
  await updateJudgingSettings(actor, { judgesPerSubmission: judgesPerSubmission === "every" ? null : judgesPerSubmission, blind: blind === "on" });
  return { saved: messages.judging.saved };
}

export async function saveFeedbackGates(actor: Actor, value: z.output<typeof FeedbackGatesSchema>): Promise<SettingsOutcome> {
  const published = await updateFeedbackGates(actor, value.gates ?? []);
  return { saved: messages.judging.feedbackSaved(published) };
}

export async function saveTeamSizeCap(actor: Actor, value: z.output<typeof TeamSizeCapSchema>): Promise<SettingsOutcome> {
  await updateTeamSizeCap(actor, value.teamSizeCap);
  return { saved: messages.teamSize.saved(value.teamSizeCap) };
}

/** Settings → Teams: whether participants form their own teams, and whether teams are locked (docs/domain.md "Teams that form themselves"). */
export async function saveTeamFormation(actor: Actor, value: z.output<typeof TeamFormationSchema>): Promise<SettingsOutcome> {
  await writeTeamFormation(actor, { selfFormedTeams: value.selfFormedTeams, teamsLocked: value.teamsLocked });
  return { saved: messages.selfTeams.formationSaved };
}

/** Settings → Sign-in: password sign-in for participants on or off (docs/domain.md "Passwords off for participants"). */
export async function saveSignIn(actor: Actor, value: z.output<typeof SignInSettingsSchema>): Promise<SettingsOutcome> {
  return { saved: await saveParticipantPasswords(actor, !value.participantPasswordsOff) };
}

export async function saveFlagSettings(actor: Actor, value: z.output<typeof FlagSettingsSchema>): Promise<SettingsOutcome> {
  await updateFlagWrongPerMinute(actor, value.flagWrongPerMinute);
  return { saved: messages.flagAnswers.settingSaved };
}

export async function saveDivisions(actor: Actor, value: z.output<typeof DivisionsFormSchema>): Promise<SettingsOutcome> {
  const names = divisionList(value.divisions);
  await updateDivisions(actor, names);
  return { saved: messages.divisions.saved(names) };
}

export async function saveMeal(actor: Actor, value: z.output<typeof MealAddSchema>): Promise<SettingsOutcome> {
  const at = await eventInstant(value.at);
  if (!at) return impossible("at");
  await addMeal(actor, value.label, at);
  return { saved: m.mealAdded };
}

/** Removes a meal; the toast's title. */
export async function dropMeal(actor: Actor, value: z.output<typeof MealRemoveSchema>): Promise<string> {
  await removeMeal(actor, value.id);
  return m.mealRemoved;
}
