import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SettingsScreen } from "~/components/dashboard/settings-forms";
import { FirstBloodWebhookSettings } from "~/components/dashboard/webhook-settings";
import { DivisionsFormSchema } from "~/modules/divisions/schema";
import { TeamFormationSchema } from "~/modules/teams/schema";
import { FeedbackGatesSchema, JudgingSettingsSchema } from "~/modules/judging/schema";
import {
  dropMeal,
  freezeScoreboard,
  readSettingsPage,
  saveDivisions,
  saveFeedbackGates,
  saveFinal,
  saveFlagSettings,
  saveGate,
  saveJudging,
  saveMeal,
  saveSubmissionsClose,
  saveTeamFormation,
  saveTeamSizeCap,
  saveSignIn,
} from "~/modules/settings/event-settings.server";
import { FinalSettingsSchema, FlagSettingsSchema, GateSettingsSchema, MealAddSchema, MealRemoveSchema, SignInSettingsSchema, SubmissionsCloseSchema, TeamSizeCapSchema } from "~/modules/settings/schema";
import styles from "~/styles/dashboard.css";
import { requirePageActor } from "~/glue/actor.server";
import { secretPageHeaders } from "~/glue/secret-pages.server";
import { isWebhookIntent, webhookSettingsAction } from "~/glue/webhook-settings.server";
import { readWebhookView } from "~/modules/webhooks/settings.server";
import { requirePage } from "~/glue/auth.server";
import { intentForm, type IntentForm } from "~/glue/intent-forms.server";
import { badRequest } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";

/** A new webhook secret is shown once on this page: neither it nor its `.data` answer may be kept by a cache. */
export const headers = secretPageHeaders;
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const [page, webhook] = await Promise.all([readSettingsPage(), readWebhookView()]);
  return { ...page, webhook };
}

const settingsUrl = "/dashboard/settings";

/**
 * Each form of the page, by its intent: the schema it is checked against and the module call that saves it.
 * Made inside the action: a table built at the module's top level would run in the browser too, where the
 * server-only glue it calls does not exist, and stop the page from hydrating.
 */
const settingsForms = (): Record<string, IntentForm> => ({
  gate: intentForm(GateSettingsSchema, saveGate, { numbered: true }),
  final: intentForm(FinalSettingsSchema, saveFinal),
  "submissions-close": intentForm(SubmissionsCloseSchema, saveSubmissionsClose),
  judging: intentForm(JudgingSettingsSchema, saveJudging, { failure: { log: "judging settings not saved" } }),
  feedback: intentForm(FeedbackGatesSchema, saveFeedbackGates, { failure: { log: "feedback gates not saved" } }),
  "team-cap": intentForm(TeamSizeCapSchema, saveTeamSizeCap, { failure: { log: "team size cap not saved", fieldOf: () => "teamSizeCap" } }),
  "team-formation": intentForm(TeamFormationSchema, saveTeamFormation, { failure: { log: "team formation not saved", fieldOf: () => "selfFormedTeams" } }),
  "sign-in": intentForm(SignInSettingsSchema, saveSignIn, { failure: { log: "sign-in settings not saved", fieldOf: () => "participantPasswordsOff" } }),
  flags: intentForm(FlagSettingsSchema, saveFlagSettings, { failure: { log: "flag settings not saved", fieldOf: () => "flagWrongPerMinute" } }),
  divisions: intentForm(DivisionsFormSchema, saveDivisions, { failure: { log: "divisions not saved", fieldOf: (refusal) => (refusal ? "divisions" : undefined) } }),
  "meal-add": intentForm(MealAddSchema, saveMeal),
});

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requirePageActor(request);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  // The two buttons (freeze, remove a meal) type nothing: done, or a post no page of ours sends.
  if (intent === "freeze" || intent === "unfreeze") {
    return redirectWithToast(settingsUrl, { type: "success", title: await freezeScoreboard(actor, intent === "freeze") });
  }
  if (intent === "meal-remove") {
    const parsed = MealRemoveSchema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) throw badRequest();
    return redirectWithToast(settingsUrl, { type: "success", title: await dropMeal(actor, parsed.data) });
  }
  if (isWebhookIntent(intent)) return webhookSettingsAction(actor, formData, settingsUrl);
  const forms = settingsForms();
  const form = Object.hasOwn(forms, intent) ? forms[intent] : undefined;
  if (!form) throw badRequest();
  return form(actor, formData, settingsUrl);
}

export default function Settings() {
  const { webhook, ...page } = useLoaderData<typeof loader>();
  return (
    <>
      <SettingsScreen {...page} />
      <FirstBloodWebhookSettings webhook={webhook} />
    </>
  );
}
