import { isRouteErrorResponse, useLocation, useRouteError } from "@remix-run/react";
import { ActionLink } from "~/components/ui/action-button";
import { Message } from "~/components/ui/message";
import { TitleBar } from "~/components/ui/title-bar";
import { roleHome, type Role } from "~/modules/auth/access";
import { useT } from "~/components/i18n";
import { AppLink } from "~/components/ui/app-link";
import { useServerMessage } from "~/components/server-message";

/** A full page for 403 / 404 / 500 with a way back; never a stack trace. */
export function StatusPage({ status, title, message, home = "/" }: {
  status: number;
  title: string;
  message: string;
  home?: string;
}) {
  const { t } = useT();
  return (
    <main className="status-page" aria-labelledby="status-title">
      <p className="status-page__code" aria-hidden="true">
        {status}
      </p>
      <h1 id="status-title" className="status-page__title">
        {title}
      </h1>
      <p className="status-page__message">{message}</p>
      <AppLink className="action-button" to={home}>
        {t("errors.backToSafety")}
      </AppLink>
    </main>
  );
}

/** Maps a thrown response or error to the right status page. */
export function RouteErrorPage() {
  const { t } = useT();
  const say = useServerMessage();
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    // A thrown data({ message }) carries the server's sentence (in English: shown in the page's language);
    // Remix's own errors (a 405 for a page without a form) carry a developer's text, never shown.
    const payload = (error.data !== null && typeof error.data === "object" ? error.data : {}) as { message?: unknown; home?: Role };
    const message = typeof payload.message === "string" && payload.message ? say(payload.message) : undefined;
    const home = payload.home ? roleHome(payload.home) : "/";
    if (error.status === 403)
      return <StatusPage status={403} title={t("errors.forbiddenTitle")} message={message ?? t("errors.forbidden")} home={home} />;
    if (error.status === 404)
      return <StatusPage status={404} title={t("errors.notFoundTitle")} message={t("errors.notFound")} home={home} />;
    // A POST (or PUT, PATCH, DELETE) to a page that takes no form.
    if (error.status === 405)
      return <StatusPage status={405} title={t("errors.badRequestTitle")} message={message ?? t("errors.methodNotAllowed")} home={home} />;
    if (error.status === 503)
      return <StatusPage status={503} title={t("errors.serverTitle")} message={t("errors.unavailable")} home={home} />;
    // 400, a body no form sends (415), too large (413) or too slow (408), any other refusal: what was wrong, in words.
    if (error.status < 500)
      return <StatusPage status={error.status} title={t("errors.badRequestTitle")} message={message ?? t("errors.badRequest")} home={home} />;
    return <StatusPage status={error.status} title={t("errors.serverTitle")} message={t("errors.server")} />;
  }
  return <StatusPage status={500} title={t("errors.serverTitle")} message={t("errors.server")} />;
}

/** The message a failed load carries: a thrown `data({ message })`, an Error's message, or a generic text. */
function loadErrorMessage(error: unknown, fallback: string): string {
  if (isRouteErrorResponse(error)) return (error.data as { message?: string } | null)?.message ?? (error.statusText || fallback);
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/**
 * A screen whose data failed to load says so in place ("Error: {message}", or the screen's own
 * text) under its title, with a way to try again. A 403 or 404 keeps its usual status page.
 */
export function LoadErrorPage({ title, text, className }: { title: string; text?: (message: string) => string; className?: string }) {
  const { t } = useT();
  const error = useRouteError();
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status < 500) return <RouteErrorPage />;
  const message = loadErrorMessage(error, t("errors.server"));
  return (
    <main className={["page participant-page", className].filter(Boolean).join(" ")} aria-labelledby="load-error-title">
      <TitleBar title={title} id="load-error-title" />
      <Message tone="error">{text ? text(message) : t("participant.errorPrefix", { message })}</Message>
      <p className="text-center">
        <ActionLink to={`${location.pathname}${location.search}`} reloadDocument variant="subtle">
          {t("errors.tryAgain")}
        </ActionLink>
      </p>
    </main>
  );
}
