import { useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Toaster, toast as showToast } from "sonner";
import { useT } from "~/components/i18n";
import { PHONE_WIDTH } from "~/components/flash-notice";
import { isLanguage } from "~/modules/i18n/i18n";
import { translateMessage } from "~/modules/i18n/server-messages";

export interface ClientToast {
  id: string;
  type: "message" | "success" | "error";
  title: string;
  description?: string;
}

/** Default 4 s, success 2 s, error 4 s; at most 20 on screen; top centre, below the page's bar. */
const durations = { message: 4000, success: 2000, error: 4000 } as const;

/**
 * Shows a toast (in the browser only). A server message (app/modules/messages.ts) is shown in the page's
 * language, read from <html lang>: every toast passes here, whoever raised it.
 */
export function showAppToast(toast: Omit<ClientToast, "id"> & { id?: string }) {
  const lang = document.documentElement.lang;
  const language = isLanguage(lang) ? lang : "en";
  const title = translateMessage(toast.title, language);
  const description = toast.description === undefined ? undefined : translateMessage(toast.description, language);
  const options = { id: toast.id, description, duration: durations[toast.type] };
  if (toast.type === "success") showToast.success(title, options);
  else if (toast.type === "error") showToast.error(title, options);
  else showToast(title, options);
}

/**
 * A refused create or edit on the dashboard is also a toast. The form keeps its message beside the
 * button (the only feedback without JavaScript); with JavaScript the toast says it too, once per answer.
 */
export function useFormErrorToast(lastResult: { error?: Record<string, string[] | null> | null } | null | undefined) {
  const message = lastResult?.error?.[""]?.[0];
  useEffect(() => {
    if (message) showAppToast({ type: "error", title: message });
  }, [lastResult, message]);
}

/** Spread on a page's bar (its navigation): toasts stay below it. */
export const toastsBelow = { "data-toasts-below": "" } as const;

/** Sonner's own gaps from the top of the screen (wide, then phone widths), kept below the bar. */
const GAP = { wide: 24, phone: 16 };

/**
 * Where the bar at the top of the screen ends (0 when there is none, it has scrolled away, or it is a side
 * column clear of the centre, as the dashboard's on a wide screen): the participant bar is sticky, the
 * dashboard's links on a phone scroll with the page, and the small-screen menu opens and closes.
 */
function useBarBottom(): number {
  const [bottom, setBottom] = useState(0);
  const { pathname } = useLocation();
  useEffect(() => {
    const bar = document.querySelector("[data-toasts-below]");
    if (!bar) {
      setBottom(0);
      return;
    }
    const measure = () => {
      const box = bar.getBoundingClientRect();
      const centre = window.innerWidth / 2;
      setBottom(box.left < centre && box.right > centre ? Math.max(0, Math.ceil(box.bottom)) : 0);
    };
    measure();
    const resized = new ResizeObserver(measure);
    resized.observe(bar);
    window.addEventListener("resize", measure);
    window.addEventListener("scroll", measure, { passive: true });
    return () => {
      resized.disconnect();
      window.removeEventListener("resize", measure);
      window.removeEventListener("scroll", measure);
    };
  }, [pathname]);
  return bottom;
}

export function AppToaster({ toast }: { toast: ClientToast | null }) {
  const barBottom = useBarBottom();
  const { t } = useT();
  useEffect(() => {
    // Deferred a tick so the Toaster has mounted when a toast arrives with the first render.
    if (!toast) return;
    setTimeout(() => {
      // The page shows it as its first line (the dashboard on a phone: FlashNotice): no toast over the first card.
      if (document.querySelector("[data-flash-first-line-host]") && window.matchMedia(PHONE_WIDTH).matches) return;
      showAppToast(toast);
    }, 0);
  }, [toast]);
  return (
    <Toaster
      position="top-center"
      offset={{ top: barBottom + GAP.wide }}
      mobileOffset={{ top: barBottom + GAP.phone }}
      visibleToasts={20}
      richColors
      theme="dark"
      dir="auto"
      containerAriaLabel={t("common.toasts")}
      toastOptions={{ duration: durations.message }}
    />
  );
}
