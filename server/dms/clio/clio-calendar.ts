import { createHash } from "node:crypto";
import { DmsTargetError, type FilingSubject } from "../dms-target";
import { CLIO_KIND } from "./clio-hosts";
import { z } from "zod";
import { listAll, parseAnswer } from "./clio-lists";
import type { ClioSession } from "./clio-session";
import { readHearing } from "./hearing-dates";

// A hearing the docket text sets becomes one Clio calendar entry on the matter, in the calendar
// the credential names (calendar_owner). One filing brings several documents and a retry comes
// back to the same filing, so the entry carries an external property keyed by the matter, the
// case and the docket text: it is created only when Clio has none with that key.

export const HEARING_PROPERTY = "ecfx_hearing";

export interface CalendarSettings {
  create_calendar_entries: boolean;
  calendar_id: number | null;
}

const hearingKey = (matterId: number, subject: FilingSubject) =>
  createHash("sha256").update(`${matterId}\n${subject.case.number}\n${subject.docketText}`).digest("hex").slice(0, 40);

/** The entry's id when the filing sets a hearing and the credential asks for entries; null otherwise. */
export async function ensureHearingEntry(
  session: ClioSession,
  settings: CalendarSettings,
  matterId: number,
  subject: FilingSubject | undefined,
): Promise<number | null> {
  if (!settings.create_calendar_entries || !subject?.docketText) return null;
  const hearing = readHearing(subject.docketText, subject.timeZone);
  if (!hearing) return null;
  if (!settings.calendar_id) {
    throw new DmsTargetError(CLIO_KIND, "Calendar entries are switched on but the credential names no calendar (calendar_id)", false);
  }
  const key = hearingKey(matterId, subject);
  const existing = await listAll(
    session,
    "/api/v4/calendar_entries.json",
    { external_property_name: HEARING_PROPERTY, external_property_value: key, fields: "id" },
    "the search for the hearing's calendar entry",
    z.object({ id: z.number() }),
  );
  if (existing[0]) return existing[0].id;
  const caseName = [subject.case.number, subject.case.name].filter(Boolean).join(" ");
  const answer = await session.call(
    "/api/v4/calendar_entries.json",
    {
      method: "POST",
      query: { fields: "id" },
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        data: {
          summary: caseName ? `${hearing.event}: ${caseName}` : hearing.event,
          description: subject.docketText,
          start_at: hearing.startAt,
          end_at: hearing.endAt,
          all_day: hearing.allDay,
          matter: { id: matterId },
          calendar_owner: { id: settings.calendar_id },
          external_properties: [{ name: HEARING_PROPERTY, value: key }],
        },
      }),
    },
    "the hearing's calendar entry",
  );
  return parseAnswer(z.object({ data: z.object({ id: z.number() }) }), answer, "the hearing's calendar entry").data.id;
}
