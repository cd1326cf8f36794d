import { z } from "zod";

// The upload form, checked in the browser (with JavaScript) and again by the action. Messages
// are catalogue keys of the transfer namespace.

/** Browsers send an empty, nameless part when no file was chosen. */
const isChosenFile = (value: unknown): value is File =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as File).name === "string" &&
  typeof (value as File).size === "number" &&
  typeof (value as File).text === "function" &&
  ((value as File).name !== "" || (value as File).size > 0);

const IMPORT_FILE_NAME = /\.(txt|csv)$/i;

export const importFormSchema = z.object({
  file: z
    .custom<File>(isChosenFile, "transfer:import.noFile")
    // The spec's .txt, and the .csv the export writes, so that an export can be imported back.
    .refine((file) => IMPORT_FILE_NAME.test(file.name), "transfer:import.notTextFile")
    .refine((file) => file.size > 0, "transfer:import.emptyFile"),
  sync: z.boolean().optional(),
  confirm: z.boolean().optional(),
});
