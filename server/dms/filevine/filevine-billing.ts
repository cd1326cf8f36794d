import { DmsTargetError, type FilingSubject } from "../dms-target";
import { FILEVINE_KIND, field, pageOf } from "./filevine-http";
import type { FileVineSession } from "./filevine-session";

// The billing item a filing adds to the project when the credential's billingItem is set: one
// time entry per filing, "<description> | <hours> | <rate>" (hours and rate optional: 0.1 hour
// at rate 0 unless given), described with the case, the docket text and the filing's mark. A
// retry lists the project's billing items (GET /billingitem/projects/<project>) and adds none
// when one carries the mark already (POST /projects/<project>/BillingItem otherwise).

export interface BillingSetting {
  description: string;
  quantity: number;
  rate: number;
}

const DEFAULT_HOURS = 0.1;
const PAGE = 1000;
const MAX_DESCRIPTION = 1000;

/** The credential's billingItem read; null when unset, a permanent error when it cannot be read. */
export function billingSetting(text: string): BillingSetting | null {
  if (!text.trim()) return null;
  const [description = "", hours, rate] = text.split("|").map((part) => part.trim());
  const number = (value: string | undefined, fallback: number, what: string) => {
    if (value === undefined || value === "") return fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < 0)
      throw new DmsTargetError(FILEVINE_KIND, `The credential's billing item has no valid ${what}: "${value}"`, false);
    return parsed;
  };
  if (!description) throw new DmsTargetError(FILEVINE_KIND, "The credential's billing item has no description before its first |", false);
  return { description, quantity: number(hours, DEFAULT_HOURS, "hours"), rate: number(rate, 0, "rate") };
}

/** The mark in a billing item's description that tells a retry the filing's item is there. */
export const billingMark = (idempotencyKey: string): string => `[ecfx ${idempotencyKey}]`;

async function hasItem(session: FileVineSession, projectId: string, mark: string): Promise<boolean> {
  for (let offset = 0; ; offset += PAGE) {
    const answer = await session.call(
      `/billingitem/projects/${encodeURIComponent(projectId)}`,
      { query: { limit: PAGE, offset } },
      "to list the project's billing items",
    );
    const page = pageOf(answer);
    if (page.items.some((item) => String(field(item, "description") ?? "").includes(mark))) return true;
    if (!page.hasMore || page.items.length === 0) return false;
  }
}

/** Adds the filing's billing item unless an earlier attempt did. */
export async function ensureBillingItem(
  session: FileVineSession,
  setting: BillingSetting,
  projectId: string,
  subject: FilingSubject | undefined,
  documentName: string,
  idempotencyKey: string,
): Promise<void> {
  const mark = billingMark(idempotencyKey);
  if (await hasItem(session, projectId, mark)) return;
  const about = [subject?.case.number, subject?.docketText.trim() || documentName].filter(Boolean).join(": ");
  const words = `${setting.description} - ${about}`.replace(/\s+/g, " ").trim();
  const description = `${words.slice(0, MAX_DESCRIPTION - mark.length - 1)} ${mark}`;
  await session.call(
    `/projects/${encodeURIComponent(projectId)}/BillingItem`,
    {
      method: "POST",
      json: {
        billingType: "Time",
        date: new Date(session.ctx.now()).toISOString(),
        description,
        quantity: setting.quantity,
        rate: setting.rate,
        isBillable: setting.rate > 0,
      },
    },
    "to add the billing item",
  );
}
