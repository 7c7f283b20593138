import { useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import type { z } from "zod";
import { useT } from "~/components/i18n";
import { LanguageSwitch } from "~/components/layout/language-switch";
import { FullScreenToggle } from "~/components/layout/top-nav";
import { useServerMessage } from "~/components/server-message";
import { Message } from "~/components/ui/message";
import { Scene } from "~/components/ui/scene";
import { TitleBar } from "~/components/ui/title-bar";

/**
 * The frame of the pages a visitor signs in or chooses a password on (/login, /forgot-password,
 * /set-password): one card on the scene, a back arrow (to /login unless said), the corner tools.
 */
export function AccountCard({ title, hint, back, children }: { title: string; hint?: ReactNode; back?: { to: string; label: string }; children: ReactNode }) {
  const { t } = useT();
  const arrow = back ?? { to: "/login", label: t("account.backToLogin") };
  return (
    <Scene statue="left">
      <main className="login" aria-labelledby="account-title">
        <Link to={arrow.to} className="back-arrow" aria-label={arrow.label}>
          <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
            <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
          </svg>
        </Link>
        {/* The full-screen toggle is on every public page; the back arrow stands for the bar here. */}
        <div className="corner-tools">
          <LanguageSwitch />
          <FullScreenToggle />
        </div>
        <section className="card login__card">
          <div id="account-title">
            <TitleBar title={title} />
          </div>
          {hint ? <p className="login__hint">{hint}</p> : null}
          {children}
        </section>
      </main>
    </Scene>
  );
}

/** A password page's form: validated in the browser by the action's own schema, then again by the server. */
export function useAccountForm<Schema extends z.ZodType>(id: string, schema: Schema, lastResult: SubmissionResult<string[]> | undefined) {
  return useForm({
    id,
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

/** The form's message above its button, in a slot that keeps its room when empty. */
export function FormMessage({ id, error }: { id: string; error: string | undefined }) {
  const serverMessage = useServerMessage();
  return (
    <div className="login__message" aria-live="polite">
      {error ? (
        <Message tone="error" id={id}>
          {serverMessage(error)}
        </Message>
      ) : null}
    </div>
  );
}
