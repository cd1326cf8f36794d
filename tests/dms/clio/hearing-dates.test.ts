import { describe, expect, it } from "vitest";
import { readHearing } from "../../../server/dms/clio/hearing-dates";

// Hearings as CM/ECF docket texts set them (the phrasings of tests/fixtures/pacer-email), read in
// the firm's time zone.

describe("reading the hearing a docket text sets", () => {
  it.each([
    [
      "ORDER granting 12 Motion to Compel. Motion Hearing set for 3/15/2026 10:00 AM before Judge Rodney Gilstrap.",
      "America/Chicago",
      { event: "Motion Hearing", date: "2026-03-15", time: "10:00", startAt: "2026-03-15T10:00:00-05:00", endAt: "2026-03-15T11:00:00-05:00" },
    ],
    [
      "NOTICE of Hearing: Status Conference set for 1/5/2026 at 09:30 AM in Courtroom 106.",
      "America/New_York",
      { event: "Status Conference", date: "2026-01-05", time: "09:30", startAt: "2026-01-05T09:30:00-05:00" },
    ],
    [
      "Jury Trial set for 6/20/2022 09:00 AM in Fayetteville - 2nd flr (Rm 210) before Honorable P. K. Holmes, III.",
      "America/Chicago",
      { event: "Jury Trial", startAt: "2022-06-20T09:00:00-05:00" },
    ],
    [
      "CLERK'S NOTICE: Motion Hearing set for 1/19/2023 02:00 PM in Oakland, - Videoconference Only before Judge Jon S. Tigar.",
      "America/Los_Angeles",
      { event: "Motion Hearing", time: "14:00", startAt: "2023-01-19T14:00:00-08:00", endAt: "2023-01-19T15:00:00-08:00" },
    ],
    [
      "SCHEDULING ORDER: Final Pretrial Conference set for 2/23/2023 04:00 PM before Chief Judge Nannette Jolivette Brown.",
      "America/Chicago",
      { event: "Final Pretrial Conference", startAt: "2023-02-23T16:00:00-06:00" },
    ],
    ["Hearing set for 12/1/25 12:15 PM.", "UTC", { event: "Hearing", date: "2025-12-01", time: "12:15", startAt: "2025-12-01T12:15:00+00:00" }],
    ["Confirmation Hearing reset for 3/13/2024 at 1:00 PM", "America/Denver", { event: "Confirmation Hearing", startAt: "2024-03-13T13:00:00-06:00" }],
    [
      "Bench Trial set for 5/16/2022 09:00 AM in Fort Smith -- 3rd flr (Rm 310)",
      "America/Chicago",
      { event: "Bench Trial", startAt: "2022-05-16T09:00:00-05:00" },
    ],
    [
      "Sentencing set for 7/8/2026 before Judge Kernodle.",
      "America/Chicago",
      { event: "Sentencing", allDay: true, time: null, startAt: "2026-07-08T00:00:00-05:00", endAt: "2026-07-09T00:00:00-05:00" },
    ],
    ["Motion Hearing set for 3/8/2026 12:00 AM", "America/Chicago", { time: "00:00", startAt: "2026-03-08T00:00:00-06:00" }],
  ])("%s", (text, zone, expected) => {
    expect(readHearing(text, zone)).toMatchObject(expected);
  });

  it("reads the time across a daylight-saving change in the firm's zone", () => {
    // 8 March 2026: clocks in Chicago go forward at 2 AM.
    expect(readHearing("Motion Hearing set for 3/8/2026 10:00 AM", "America/Chicago")?.startAt).toBe("2026-03-08T10:00:00-05:00");
    expect(readHearing("Motion Hearing set for 11/1/2026 11:30 PM", "Europe/London")).toMatchObject({
      startAt: "2026-11-01T23:30:00+00:00",
      endAt: "2026-11-02T00:30:00+00:00",
    });
  });

  it("sets nothing for a docket text without a hearing, or an impossible date", () => {
    expect(readHearing("ORDER granting Motion to Dismiss.", "America/Chicago")).toBeNull();
    expect(readHearing("Deadline set for 3/15/2026.", "America/Chicago")).toBeNull();
    expect(readHearing("Motion Hearing set for 2/30/2026 10:00 AM", "America/Chicago")).toBeNull();
    expect(readHearing("Motion Hearing set for 2/3/2026 13:00 PM", "America/Chicago")).toBeNull();
    expect(readHearing("", "America/Chicago")).toBeNull();
  });

  it("reads the text across line breaks, and falls back to UTC for an unknown zone", () => {
    expect(readHearing("Jury Trial set for 3/20/2023\n09:00 AM before Chief Judge", "Mars/Olympus")).toMatchObject({ startAt: "2023-03-20T09:00:00+00:00" });
  });
});
