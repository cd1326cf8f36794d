import type { Connection } from "jsforce/lib/connection.js";
import { DmsTargetError, type FilingSubject } from "../dms-target";
import { LITIFY_KIND } from "./litify-errors";
import { soqlField, soqlString } from "./litify-soql";

// The Litify matter a filing goes to: litify_pm__Matter__c whose matter column (the credential's
// matter_column_name) holds the filing's matter number, or else its reference. Exactly one must:
// none or two is for someone to sort out in Litify or in ECFX, never a guess.

export const MATTER_OBJECT = "litify_pm__Matter__c";

export interface LitifyMatter {
  Id: string;
  Name: string;
}

interface QueryAnswer<T> {
  totalSize: number;
  records: T[];
}

/** Runs one SOQL query and answers its first page (the client's queries ask for a few rows). */
export async function query<T>(connection: Connection, soql: string): Promise<T[]> {
  const answer = (await connection.request({ method: "GET", url: `/query?q=${encodeURIComponent(soql)}` })) as QueryAnswer<T>;
  return answer.records ?? [];
}

/** The query for matters whose column holds `value`; two rows are enough to tell one from many. */
export const matterQuery = (column: string, value: string) => `SELECT Id, Name FROM ${MATTER_OBJECT} WHERE ${soqlField(column)} = ${soqlString(value)} LIMIT 2`;

export async function findMatter(connection: Connection, column: string, subject: FilingSubject | undefined): Promise<LitifyMatter> {
  const matter = subject?.matter;
  const values = [matter?.number, matter?.reference].filter((v, i, all): v is string => Boolean(v) && all.indexOf(v) === i);
  if (values.length === 0) {
    throw new DmsTargetError(LITIFY_KIND, "The filing's case belongs to no matter with a number or reference: Litify files by matter", false);
  }
  for (const value of values) {
    const found = await query<LitifyMatter>(connection, matterQuery(column, value));
    if (found.length > 1) {
      throw new DmsTargetError(LITIFY_KIND, `More than one Litify matter has ${column} = "${value}": make it unique in Litify`, false);
    }
    if (found.length === 1) return found[0]!;
  }
  const named = values.map((v) => `"${v}"`).join(" or ");
  throw new DmsTargetError(LITIFY_KIND, `No Litify matter has ${column} = ${named} (matter ${matter!.name || matter!.number})`, false);
}

/** A few matters with their column, for the connection test: reading only. */
export async function sampleMatters(connection: Connection, column: string): Promise<Record<string, unknown>[]> {
  const field = soqlField(column);
  const fields = field === "Id" || field === "Name" ? "Id, Name" : `Id, Name, ${field}`;
  return query<Record<string, unknown>>(connection, `SELECT ${fields} FROM ${MATTER_OBJECT} LIMIT 5`);
}
