import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { roleHome, type Role } from "~/modules/auth/access";
import { messages } from "~/modules/messages";

/** A full page for 403 / 404 / 500 with a way back; never a stack trace. */
export function StatusPage({ status, title, message, home = "/" }: {
  status: number;
  title: string;
  message: string;
  home?: string;
}) {
  return (
    <main className="status-page" aria-labelledby="status-title">
      <p className="status-page__code" aria-hidden="true">
        {status}
      </p>
      <h1 id="status-title" className="status-page__title">
        {title}
      </h1>
      <p className="status-page__message">{message}</p>
      <Link className="action-button" to={home}>
        Back to safety
      </Link>
    </main>
  );
}

/** Maps a thrown response or error to the right status page. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const payload = (error.data ?? {}) as { message?: string; home?: Role };
    const home = payload.home ? roleHome(payload.home) : "/";
    if (error.status === 403)
      return (
        <StatusPage status={403} title={messages.errors.forbiddenTitle} message={payload.message ?? messages.errors.forbidden} home={home} />
      );
    if (error.status === 404)
      return <StatusPage status={404} title={messages.errors.notFoundTitle} message={messages.errors.notFound} home={home} />;
    if (error.status === 400)
      return <StatusPage status={400} title={messages.errors.badRequestTitle} message={payload.message ?? messages.errors.badRequest} home={home} />;
    if (error.status === 503)
      return <StatusPage status={503} title={messages.errors.serverTitle} message={messages.errors.unavailable} home={home} />;
    return <StatusPage status={error.status} title={messages.errors.serverTitle} message={payload.message ?? messages.errors.server} />;
  }
  return <StatusPage status={500} title={messages.errors.serverTitle} message={messages.errors.server} />;
}
