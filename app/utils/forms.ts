import type { TFunction } from "i18next";
import { splitMessageKey } from "../common/validation";

/** Validation messages are catalogue keys ("errors:required", "errors:fieldLength|60"). */
export function translateErrors(t: TFunction, errors: string[] | undefined): string | undefined {
  if (!errors?.length) return undefined;
  return errors
    .map((e) => {
      if (!e.startsWith("errors:")) return e;
      const { key, values } = splitMessageKey(e);
      return t(key, values);
    })
    .join(" ");
}
