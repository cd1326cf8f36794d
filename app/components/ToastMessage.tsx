import { Progress, Stack, Text } from "../utils/mantine-document";
import { useEffect, useRef, useState } from "react";

/** Spec §9: a toast lasts 5000 ms; its progress bar moves every 100 ms. */
export const TOAST_MS = 5000;
export const TOAST_TICK_MS = 100;

/**
 * A toast's text over a bar that shows the time it has left. Time stands still while the pointer
 * is over the toast and goes on when it leaves; when it is out, the toast closes (`onDone`).
 */
export function ToastMessage({ message, color, onDone }: { message: string; color: string; onDone: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const [elapsed, setElapsed] = useState(0);

  useEffect(() => {
    const root = ref.current?.closest<HTMLElement>(".mantine-Notification-root") ?? ref.current;
    let hovered = false;
    const enter = () => (hovered = true);
    const leave = () => (hovered = false);
    root?.addEventListener("mouseenter", enter);
    root?.addEventListener("mouseleave", leave);
    const timer = setInterval(() => {
      if (!hovered) setElapsed((ms) => Math.min(TOAST_MS, ms + TOAST_TICK_MS));
    }, TOAST_TICK_MS);
    return () => {
      clearInterval(timer);
      root?.removeEventListener("mouseenter", enter);
      root?.removeEventListener("mouseleave", leave);
    };
  }, []);

  useEffect(() => {
    if (elapsed >= TOAST_MS) onDone();
  }, [elapsed, onDone]);

  const left = Math.round(100 - (elapsed / TOAST_MS) * 100);
  return (
    <Stack gap={6} ref={ref}>
      <Text size="sm">{message}</Text>
      <Progress value={left} color={color} size="xs" aria-label={message} data-testid="toast-progress" transitionDuration={TOAST_TICK_MS} />
    </Stack>
  );
}
