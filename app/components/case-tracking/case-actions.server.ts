import type { ProductPart } from "../../common/entitled-features";
import { ApiError } from "../../utils/api.server";
import { type SignedIn, requireUser } from "../../utils/auth.server";
import { pageNotFound } from "../../utils/not-found.server";
import { redirectWithToast } from "../../utils/toast.server";
import { casePath } from "./TrackingConfirmation";

// The form posts of a case's ECFX Track and retrieve panels: the page of a part the firm does not
// have on this host is unknown (decision 048); what the API refuses comes back as its sentence.

/** The signed-in user on a case's page of this part, or a 404. */
export async function requireCasePart(request: Request, part: ProductPart): Promise<SignedIn> {
  const signedIn = await requireUser(request, "caseAccess");
  if (!signedIn.me.parts.includes(part)) await pageNotFound(request);
  return signedIn;
}

/** Runs the call and goes back to the case with a toast: the done key, or the API's refusal in its words. */
export async function backToCase(request: Request, caseId: string, signedIn: SignedIn, call: () => Promise<unknown>, doneKey: string) {
  try {
    await call();
  } catch (error) {
    if (error instanceof ApiError && (error.status === 409 || error.status === 400)) {
      return redirectWithToast(request, casePath(caseId), { type: "error", text: error.body.message ?? "" });
    }
    throw error;
  }
  return redirectWithToast(request, casePath(caseId), { type: "success", key: doneKey });
}
