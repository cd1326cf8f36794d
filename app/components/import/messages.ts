import type { TFunction } from "i18next";
import { translateErrors } from "../../utils/forms";
import { MAX_IMPORT_BYTES, formatBytes } from "../../common/import/format";

/** Form errors are transfer or errors catalogue keys, or the API's own sentences. */
export function importErrors(t: TFunction, errors: string[] | undefined): string | undefined {
  if (!errors?.length) return undefined;
  return errors.map((e) => (e.startsWith("transfer:") ? t(e, { size: formatBytes(MAX_IMPORT_BYTES) }) : translateErrors(t, [e]))).join(" ");
}
