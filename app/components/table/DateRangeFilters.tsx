import { DateInput } from "@mantine/dates";
import { useDebouncedCallback } from "@mantine/hooks";
import { createContext, useContext, useEffect, useState } from "react";
import type { TableFrame } from "./types";

// The interactive table's date range filters. They are drawn inside MRT's filter row but keep
// their days here: MRT's own range inputs each send their end back after a delay, composed into
// the range it last held, and under load a late end could bring back a half range after the
// second date had already reached the URL.

export type DayRange = { from: string; to: string };
type End = keyof DayRange;

const EMPTY: DayRange = { from: "", to: "" };
const pad = (n: number) => String(n).padStart(2, "0");

/** The calendar day the user picked (the date input works in local time). */
const dayOf = (value: Date | null): string =>
  value && !Number.isNaN(value.getTime()) ? `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}` : "";
const dateOf = (day: string): Date | null => {
  const [y, m, d] = day.split("-").map(Number);
  return y && m && d ? new Date(y, m - 1, d) : null;
};

/** A range as the user left it; `sent` once it has gone to the URL. */
type Asked = DayRange & { sent?: boolean };

const isHalf = (r: DayRange) => Boolean(r.from) !== Boolean(r.to);
/**
 * What new data leaves of the asked ranges: any not yet sent, and half ones, which never reach the
 * URL, unless the URL now holds a range of that field (back, a link): then the URL wins.
 */
function stillAsked(asked: Record<string, Asked>, urlFilters: Record<string, string>): Record<string, Asked> {
  const kept = Object.entries(asked).filter(([field, r]) => !r.sent || (isHalf(r) && !urlFilters[field]));
  // The same object when nothing goes, so the table is not drawn again for nothing.
  return kept.length === Object.keys(asked).length ? asked : Object.fromEntries(kept);
}
const allSent = (asked: Record<string, Asked>) => Object.fromEntries(Object.entries(asked).map(([f, r]) => [f, { ...r, sent: true }]));

/** The URL's filters with each asked range in place: a whole range, in order, or none. */
function withRanges(filters: Record<string, string>, asked: Record<string, DayRange>): Record<string, string> {
  const out = { ...filters };
  for (const [field, { from, to }] of Object.entries(asked)) {
    delete out[field];
    if (from && to) out[field] = from <= to ? `${from}..${to}` : `${to}..${from}`;
  }
  return out;
}

type DateRanges = {
  /** What a field's inputs show: what the user asked for, else what the URL says. */
  shown: (field: string) => DayRange;
  pick: (field: string, end: End, day: string) => void;
  /** Fields with one date of two, which the URL cannot hold. */
  waiting: string[];
  /** MRT's view of the date filters, for its header marks: the URL's form of each range. */
  mrtValue: (field: string) => string | undefined;
};

/**
 * Ranges asked for, kept until the URL answers them; a half range stays until its second date.
 * `commit` receives the URL's filters with every asked range applied, after typing pauses.
 */
export function useDateRanges(table: TableFrame, commit: (filters: Record<string, string>) => void): DateRanges {
  // A half range the server saw in the address (a form sent without JavaScript) counts as sent.
  const [asked, setAsked] = useState<Record<string, Asked>>(() => allSent(table.partialRanges));
  // New data means the URL now holds what was sent.
  useEffect(() => setAsked((a) => stillAsked(a, table.state.filters)), [table]);
  const send = useDebouncedCallback(() => {
    setAsked(allSent);
    commit(withRanges(table.state.filters, asked));
  }, 400);

  const fromUrl = (field: string): DayRange => {
    const [from = "", to = ""] = (table.state.filters[field] ?? "").split("..");
    return { from, to };
  };
  const shown = (field: string): DayRange => asked[field] ?? fromUrl(field);
  return {
    shown,
    pick: (field, end, day) => {
      setAsked((a) => ({ ...a, [field]: { ...(a[field] ?? fromUrl(field)), [end]: day, sent: false } }));
      send();
    },
    waiting: Object.entries(asked)
      .filter(([, r]) => isHalf(r))
      .map(([field]) => field),
    mrtValue: (field) => {
      const { from, to } = shown(field);
      return from || to ? `${from}..${to}` : undefined;
    },
  };
}

export const DateRangesContext = createContext<DateRanges | null>(null);

/** One end of a range, drawn by MRT in the column's filter cell. */
export function DateEndInput({ field, end, label }: { field: string; end: End; label: string }) {
  const ranges = useContext(DateRangesContext);
  const day = (ranges?.shown(field) ?? EMPTY)[end];
  return (
    <DateInput
      className="date-end-filter"
      variant="unstyled"
      valueFormat="YYYY-MM-DD"
      clearable
      allowDeselect
      placeholder={label}
      aria-label={label}
      title={label}
      value={dateOf(day)}
      onChange={(date) => ranges?.pick(field, end, dayOf(date))}
      // A click in the filter cell must not sort the column.
      onClick={(event) => event.stopPropagation()}
      popoverProps={{ withinPortal: true }}
    />
  );
}
