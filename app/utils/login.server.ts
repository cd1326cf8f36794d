import { parseWithZod } from "@conform-to/zod";
import { data, redirect } from "@remix-run/node";
import { AuthorizationError } from "remix-auth";
import { authenticatorFor } from "./auth.server";
import { loginSchema } from "./auth-schemas";
import { oversizedFields, readForm } from "./request-body.server";
import { safeRedirect } from "./safe-redirect";
import { readSession } from "./session.server";

// The sign-in page's server half, kept out of the route module: remix-auth declares no freedom
// from side effects, so any import of it from a route would ship it, and the server runtime it
// pulls in, to every browser.

/** A signed-in visitor goes where they were headed instead of signing in again. */
export async function redirectSignedIn(request: Request): Promise<null> {
  if (await readSession(request)) throw redirect(safeRedirect(new URL(request.url).searchParams.get("from")));
  return null;
}

/** Checks the form, then signs in through the API; a refusal comes back as the form's error. */
export async function signIn(request: Request) {
  const form = await readForm(request.clone());
  const submission = parseWithZod(form, { schema: loginSchema });
  if (submission.status !== "success") {
    // A huge value is refused, not shown back: the page stays small whatever was sent.
    const oversized = oversizedFields(form);
    const reply = submission.reply({ hideFields: ["password", ...oversized] });
    return oversized.length ? data(reply, { status: 400 }) : reply;
  }
  try {
    return await authenticatorFor(request).authenticate("form", request, {
      successRedirect: safeRedirect(submission.value.from),
      throwOnError: true,
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    // remix-auth re-throws the strategy's refusal as an AuthorizationError with its message.
    const message = error instanceof AuthorizationError ? error.message : "errors:somethingWrong";
    return submission.reply({ formErrors: [message], hideFields: ["password"] });
  }
}
