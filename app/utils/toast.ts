export type ToastType = "success" | "error" | "warning" | "info" | "primary" | "secondary";

/** A toast: a catalogue key (with values) or a message already in words. */
export interface Toast {
  type: ToastType;
  key?: string;
  values?: Record<string, string | number>;
  text?: string;
}
