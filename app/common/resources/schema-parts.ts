import { z } from "zod";
import { requiredText } from "../validation";

// Pieces the entity schemas share. Messages are catalogue keys.

export const optionalText = (max = 500) => z.string().trim().max(max, `errors:fieldLength|${max}`).optional();
// null empties an optional reference or date through the API (an edit form clearing it).
export const optionalId = () => z.string().trim().min(1).nullable().optional();
export const isoDate = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "errors:invalidDate")
    .nullable()
    .optional();
export const externalKeys = {
  reference_id: optionalText(100),
  unique_key: optionalText(100),
};
export const name = (max = 200) => requiredText(max);
