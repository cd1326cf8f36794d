import { type FileVineBillingItem, readBillingItem } from "../../../app/common/filevine";
import { DmsTargetError, type FilingSubject } from "../dms-target";
import { FILEVINE_KIND } from "./filevine-http";
import { billingItemCreated, billingItemList } from "./filevine-schemas";
import type { FileVineSession } from "./filevine-session";

// The billing item a filing adds to the project when the credential's billingItem is set: one
// time entry per filing ("<description> | <hours> | <rate>", read by app/common/filevine.ts),
// for the signed-in user as timekeeper, described with the case, the docket text and the
// filing's mark. A retry lists the project's billing items (GET /billingitem/projects/<project>)
// and adds none when one carries the mark already (POST /projects/<project>/BillingItem with a
// `BillingItemRequest` otherwise).

export type BillingSetting = FileVineBillingItem;

const PAGE = 1000;
/** FileVine's `Description` holds at most 4000 characters. */
const MAX_DESCRIPTION = 4000;
/** FileVine lists 30 days of billing items unless told a range: a retry looks back this far. */
const LOOK_BACK_DAYS = 366;

/** The credential's billingItem read; null when unset, a permanent error when it cannot be read. */
export function billingSetting(text: string): BillingSetting | null {
  const setting = readBillingItem(text);
  if (setting === "unreadable")
    throw new DmsTargetError(FILEVINE_KIND, `The credential's billing item is not "description | hours | rate": "${text.trim()}"`, false);
  return setting;
}

/** The mark in a billing item's description that tells a retry the filing's item is there. */
export const billingMark = (idempotencyKey: string): string => `[ecfx ${idempotencyKey}]`;

/** "2026-11-20": FileVine's billing dates are dates, not instants. */
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function hasItem(session: FileVineSession, projectId: string, mark: string): Promise<boolean> {
  const now = session.ctx.now();
  const range = { startDate: day(now - LOOK_BACK_DAYS * 86_400_000), endDate: day(now + 86_400_000) };
  for (let offset = 0; ; offset += PAGE) {
    const page = await session.call(
      `/billingitem/projects/${encodeURIComponent(projectId)}`,
      { query: { ...range, limit: PAGE, offset } },
      "to list the project's billing items",
      billingItemList,
    );
    if (page.Items.some((item) => item.Description.includes(mark))) return true;
    if (!page.HasMore || page.Items.length === 0) return false;
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
  const { userId } = await session.user();
  await session.call(
    `/projects/${encodeURIComponent(projectId)}/BillingItem`,
    {
      method: "POST",
      json: {
        BillingType: "Time",
        // A time entry names its timekeeper: the user ECFX files as.
        UserID: Number(userId),
        Date: day(session.ctx.now()),
        Description: description,
        Quantity: setting.quantity,
        // Without a rate FileVine bills the timekeeper's own; a rate of 0 is an unbilled entry.
        ...(setting.rate > 0 ? { Rate: setting.rate } : {}),
        IsBillable: setting.rate > 0,
        IsChargeable: setting.rate > 0,
      },
    },
    "to add the billing item",
    billingItemCreated,
  );
}
