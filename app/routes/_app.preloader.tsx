import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { themeImages } from "~/components/art/theme-art";
import { prefersReducedMotion } from "~/components/participant/delayed-link";
import { RouteErrorPage } from "~/components/status-page";
import { Scene } from "~/components/ui/scene";
import { TitleBar } from "~/components/ui/title-bar";
import { safeRedirectPath } from "~/modules/auth/access";
import { requirePage } from "~/glue/auth.server";
import { useT } from "~/components/i18n";
import { pageTitle } from "~/modules/i18n/i18n";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.loading") }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const next = safeRedirectPath(new URL(request.url).searchParams.get("next")) ?? "/welcome";
  return { next: next.startsWith("/preloader") ? "/welcome" : next };
}

/** The journey's screens: their code is fetched here too, so the next steps open at once. */
const journey = ["/welcome", "/notification", "/gates", "/gate/1"];

/** What the preloader waits for (decision 008 lists it): the theme's images, styles and the journey's code. */
function assetsToLoad(): Array<{ url: string; image: boolean }> {
  const assets = new Map<string, boolean>(themeImages.map((url) => [url, true]));
  document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]').forEach((link) => assets.set(link.href, false));
  const manifest = (window as unknown as { __remixManifest?: { routes: Record<string, { path?: string; module: string }> } })
    .__remixManifest;
  for (const route of Object.values(manifest?.routes ?? {})) {
    if (route.path && journey.some((path) => path.startsWith(`/${route.path?.split("/")[0]}`))) assets.set(route.module, false);
  }
  return [...assets].map(([url, image]) => ({ url, image }));
}

/** An image is loaded and decoded (so it shows at once later); anything else is fetched into the cache. */
async function load({ url, image }: { url: string; image: boolean }): Promise<void> {
  if (!image) {
    await fetch(url, { credentials: "same-origin" });
    return;
  }
  const picture = new Image();
  picture.src = url;
  await picture.decode();
}

/**
 * A progress bar and percentage while the theme's assets load, then the next screen 500 ms
 * after completion (at once under reduced motion). Without JavaScript a refresh and a link move on.
 */
/**
 * `next` as an HTML attribute value: the browser decodes entities in it before it reads the URL, so
 * `&` must stay `&` (an unescaped `/&sol;evil.example` would become `//evil.example`). `next` is
 * already a resolved same-origin path (safeRedirectPath), percent-encoded where a URL needs it.
 */
function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export default function Preloader() {
  const { t } = useT();
  const { next } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  // A participant who already chose to go somewhere (the logout button, a link) is not pulled back to
  // `next` when loading ends: that navigation would cancel theirs (found by the logout e2e test).
  const navigation = useNavigation();
  const leaving = useRef(false);
  leaving.current = navigation.state !== "idle";
  // Route discovery (off since decision 052) made Remix fetch the target's route before a navigation began,
  // with the state still "idle": a form sent or a link followed counts from the moment it is clicked, whatever
  // Remix does first (seen in a CI run: the logout was cancelled by this page's own move to `next`).
  const chose = useRef(false);
  useEffect(() => {
    const choose = (event: Event) => {
      if (event.type === "submit" || (event.target instanceof Element && event.target.closest("a[href]"))) chose.current = true;
    };
    document.addEventListener("submit", choose, true);
    document.addEventListener("click", choose, true);
    return () => {
      document.removeEventListener("submit", choose, true);
      document.removeEventListener("click", choose, true);
    };
  }, []);
  const [percent, setPercent] = useState(0);
  useEffect(() => {
    let cancelled = false;
    const assets = assetsToLoad();
    let done = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const step = () => {
      done += 1;
      if (!cancelled) setPercent(Math.round((done / assets.length) * 100));
    };
    // A file that fails to load must not hold the participant here: it counts as done.
    void Promise.all(assets.map((asset) => load(asset).catch(() => null).finally(step))).then(() => {
      if (cancelled) return;
      timer = setTimeout(() => {
        if (!leaving.current && !chose.current) navigate(next, { replace: true });
      }, prefersReducedMotion() ? 0 : 500);
    });
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [navigate, next]);
  return (
    <Scene statue="left" className="participant-scene">
      <main className="page page--centered participant-page preloader">
        <noscript dangerouslySetInnerHTML={{ __html: `<meta http-equiv="refresh" content="1;url=${escapeAttribute(next)}">` }} />
        <TitleBar title={t("preloader.title")} />
        <progress className="preloader__bar" max={100} value={percent} aria-label={t("common.loading")} />
        <p className="preloader__percent" aria-hidden="true">{`${percent}%`}</p>
        <p>
          <a href={next}>{t("preloader.continue")}</a>
        </p>
      </main>
    </Scene>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
