import { redirect } from "@remix-run/node";
import { appCookie } from "./cookies.server";

import type { Toast } from "./toast";

export type { Toast };

const cookie = appCookie<Toast[]>("ecfx_toast", { maxAge: 60 });

export async function readToasts(request: Request): Promise<{ toasts: Toast[]; clear: string | null }> {
  const toasts = (await cookie.read(request)) ?? [];
  return { toasts, clear: toasts.length ? await cookie.clear(request) : null };
}

export function toastCookie(request: Request, toast: Toast): Promise<string> {
  return cookie.write(request, [toast]);
}

export async function redirectWithToast(request: Request, to: string, toast: Toast, init: { headers?: Headers } = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastCookie(request, toast));
  return redirect(to, { headers });
}
