import { useEffect } from "react";
import { Toaster, toast as showToast } from "sonner";

export interface ClientToast {
  id: string;
  type: "message" | "success" | "error";
  title: string;
  description?: string;
}

/** Default 4 s, success 2 s, error 4 s; at most 20 on screen; top centre. */
const durations = { message: 4000, success: 2000, error: 4000 } as const;

export function showAppToast(toast: Omit<ClientToast, "id"> & { id?: string }) {
  const options = { id: toast.id, description: toast.description, duration: durations[toast.type] };
  if (toast.type === "success") showToast.success(toast.title, options);
  else if (toast.type === "error") showToast.error(toast.title, options);
  else showToast(toast.title, options);
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

export function AppToaster({ toast }: { toast: ClientToast | null }) {
  useEffect(() => {
    // Deferred a tick so the Toaster has mounted when a toast arrives with the first render.
    if (toast) setTimeout(() => showAppToast(toast), 0);
  }, [toast]);
  return (
    <Toaster
      position="top-center"
      visibleToasts={20}
      richColors
      theme="dark"
      dir="auto"
      toastOptions={{ duration: durations.message }}
    />
  );
}
