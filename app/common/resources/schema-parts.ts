import { z } from "zod";
import { requiredText } from "../validation";

// Pieces the entity schemas share. Messages are catalogue keys.

export const optionalText = (max = 500) => z.string().trim().max(max, `errors:fieldLength|${max}`).optional();
// null empties an optional reference or date through the API (an edit form clearing it).
export const optionalId = () => z.string().trim().min(1).nullable().optional();
/**
 * Whether a YYYY-MM-DD string names a day of the calendar (2025-13-45 has the form but is none).
 * Another form is the format's message alone.
 */
const calendarDay = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return true;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
};
export const isoDate = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "errors:invalidDate")
    .refine(calendarDay, "errors:noSuchDate")
    .nullable()
    .optional();
export const externalKeys = {
  reference_id: optionalText(100),
  unique_key: optionalText(100),
};
export const name = (max = 200) => requiredText(max);

/** "key=value" lines as a map; the API also takes the map itself. */
export const properties = () =>
  z.preprocess(
    (value) => {
      if (typeof value !== "string") return value;
      const entries = value
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean)
        .map((line) => {
          const at = line.indexOf("=");
          return at < 0 ? [line, ""] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
        });
      return Object.fromEntries(entries);
    },
    z.record(z.string().trim().min(1, "errors:required").max(100, "errors:fieldLength|100"), z.string().max(500, "errors:fieldLength|500")).default({}),
  );
