import { SALESFORCE_FIELD_PATH } from "../../../app/common/resources/credentials";
import { DmsTargetError } from "../dms-target";
import { LITIFY_KIND } from "./litify-errors";

// SOQL built from values a person typed (the matter column) or a filing carries (a matter
// number): a field name is taken only as a field API name, a value only as a quoted literal with
// SOQL's escapes ("Quoted String Escape Sequences" of the SOQL and SOSL Reference).

const ESCAPES: Record<string, string> = {
  "\\": "\\\\",
  "'": "\\'",
  '"': '\\"',
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

/** A SOQL string literal, quotes included. */
export const soqlString = (value: string): string => `'${value.replace(/[\\'"\n\r\t\b\f]/g, (c) => ESCAPES[c]!)}'`;

/** The field name as SOQL takes it; a permanent error when it is not a field API name (a credential saved before names were checked). */
export function soqlField(name: string): string {
  const trimmed = name.trim();
  if (!SALESFORCE_FIELD_PATH.test(trimmed)) {
    throw new DmsTargetError(LITIFY_KIND, `The matter column "${trimmed}" is not a Salesforce field API name: correct it on the credential`, false);
  }
  return trimmed;
}
