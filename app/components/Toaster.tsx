import { Notification, Stack } from "../utils/mantine-document";
import { notifications } from "@mantine/notifications";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "../utils/use-hydrated";
import { ToastMessage } from "./ToastMessage";

import type { Toast, ToastType } from "../utils/toast";

const COLORS: Record<ToastType, string> = {
  success: "green",
  error: "red",
  warning: "yellow",
  info: "blue",
  primary: "firm",
  secondary: "firmSecondary",
};

// Messages on screen now: the same message is never stacked twice (spec §4).
const pending = new Set<string>();

export function showToast(message: string, type: ToastType = "info") {
  if (pending.has(message)) return;
  pending.add(message);
  notifications.show({
    id: message,
    message: <ToastMessage message={message} color={COLORS[type]} onDone={() => notifications.hide(message)} />,
    color: COLORS[type],
    // The message closes it after TOAST_MS of time not under the pointer.
    autoClose: false,
    withBorder: true,
    onClose: () => pending.delete(message),
  });
}

/**
 * Toasts sent by the server with the page. Without JavaScript they render in place at the top
 * centre; once the page is interactive they move to Mantine's notification stack.
 */
export function Toaster({ toasts }: { toasts: Toast[] }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const text = (toast: Toast) => toast.text ?? (toast.key ? t(toast.key, toast.values ?? {}) : "");

  useEffect(() => {
    for (const toast of toasts) showToast(text(toast), toast.type);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [toasts]);

  if (hydrated || toasts.length === 0) return null;
  return (
    <Stack className="static-toasts" gap="xs" role="status" aria-live="polite">
      {toasts.map((toast, i) => (
        <Notification key={i} color={COLORS[toast.type]} withCloseButton={false} withBorder data-toast={toast.type}>
          {text(toast)}
        </Notification>
      ))}
    </Stack>
  );
}
