import { type UploadHandler, data, unstable_parseMultipartFormData } from "@remix-run/node";

// A body that is not the form it claims to be (another content type, a multipart body cut
// short) is the sender's mistake: 400 with a message, never a 500.
const badForm = () => data({ key: "errors:badFormBody" }, { status: 400 });

/** The submitted form; 400 when the body is not a readable form. */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw badForm();
  }
}

/** A multipart form read through an upload handler; the handler's own errors (size) pass through. */
export async function readMultipartForm(request: Request, handler: UploadHandler, passThrough: (error: unknown) => boolean = () => false): Promise<FormData> {
  if (!(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) throw badForm();
  try {
    return await unstable_parseMultipartFormData(request, handler);
  } catch (error) {
    if (passThrough(error)) throw error;
    throw badForm();
  }
}

/** A value longer than any a form of ours takes; such values are never sent back in the page. */
const ECHO_LIMIT = 1000;

/** The fields whose submitted value is too long to show again in the form. */
export function oversizedFields(form: FormData): string[] {
  return [...new Set([...form.entries()].filter(([, v]) => typeof v === "string" && v.length > ECHO_LIMIT).map(([k]) => k))];
}
