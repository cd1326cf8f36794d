import { type Compilable, type Kysely, type OperationNodeSource, type QueryCreator, type Updateable, sql } from "kysely";
import type { DB } from "../db/schema";
import { type EventEntry, eventRow } from "./event-log";
import { type NextJob, jobRow } from "./queue";

// On PostgreSQL a step that changes one row, logs its event and queues its next jobs is one
// statement: the update returns the row it changed, and the event and the jobs are inserted from
// it as data-modifying CTEs, so an update that changed nothing writes nothing. One round trip
// instead of BEGIN, three or more statements and COMMIT; one statement is atomic on its own
// (decisions 120, 125). SQLite has no data-modifying CTEs: there the caller's transaction does it.

/** The tables whose rows a step changes this way. */
type Changeable = "inbox_item" | "dms_record";

type Changed = { changed: { id: string } };

/**
 * `row`'s values as a select list, for an insert of `row` from a data-modifying CTE's rows. The
 * insert gives a parameter its column's type, except across a UNION, which makes it text: a
 * number says it is one (PostgreSQL casts it to an integer column on assignment).
 */
export function selectionOf(row: object) {
  return Object.entries(row).map(([column, value]) => (typeof value === "number" ? sql`${value}::bigint` : sql`${value}`).as(column));
}

/** `row`'s columns, for the insert whose values `selectionOf(row)` selects. */
export const columnsOf = <R extends object>(row: R) => Object.keys(row) as never[];

/** `row`'s values as a select from the changed row: none when the update changed nothing. */
function fromChanged<T extends Changed>(qc: QueryCreator<T>, row: Record<string, unknown>) {
  return (qc as unknown as QueryCreator<Changed>).selectFrom("changed").select(selectionOf(row));
}

/** A row without its empty columns, for an insert whose defaults say the same (a UNION types a bare NULL as text). */
const withoutNulls = <R extends object>(row: R): Partial<R> => Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)) as Partial<R>;

/** A write of other rows that goes with a change (an update or insert, built on the statement's query creator). */
export type AlsoWritten = (qc: QueryCreator<DB>) => Compilable & OperationNodeSource;

/**
 * Updates row `id` of `table` with `set` (only while its `status` is `onlyFromStatus`, when
 * given), and when it changed, logs `entry` and queues `next` for `entry`'s firm: one statement,
 * on PostgreSQL only. Each of `also` is written in the same statement whether or not the row
 * changed (a data-modifying CTE of its own). Resolves whether the row changed.
 */
export async function changeLoggedInOneStatement<T extends Changeable>(
  db: Kysely<DB>,
  change: { table: T; id: string; set: Updateable<DB[T]>; onlyFromStatus?: string },
  entry: EventEntry,
  next: NextJob[] = [],
  also: AlsoWritten[] = [],
): Promise<boolean> {
  const logged = eventRow(entry);
  const jobs = next.map((job) => withoutNulls(jobRow({ kind: job.kind, firmId: entry.firmId, refId: job.refId, runAt: entry.at })));
  // The two tables share the columns used here; Kysely cannot type an update over a union of tables.
  const loose = db as unknown as Kysely<{ inbox_item: { id: string; status: string } }>;
  // The other writes come first: CTEs that no other part reads, each run once.
  const creator = also.reduce<QueryCreator<{ inbox_item: { id: string; status: string } }>>(
    (query, write, index) => query.with(`also_${index}`, (qc) => write(qc as unknown as QueryCreator<DB>) as never) as never,
    loose,
  );
  const changing = creator
    .with("changed", (qc) => {
      let update = qc
        .updateTable(change.table as "inbox_item")
        .set(change.set as never)
        .where("id", "=", change.id);
      if (change.onlyFromStatus !== undefined) update = update.where("status", "=", change.onlyFromStatus);
      return update.returning("id");
    })
    .with("logged", (qc) =>
      (qc as unknown as QueryCreator<DB & Changed>)
        .insertInto("event_log")
        .columns(columnsOf(logged))
        .expression(fromChanged(qc as unknown as QueryCreator<Changed>, logged)),
    );
  const rows =
    jobs.length === 0
      ? await changing.selectFrom("changed").select("id").execute()
      : await changing
          .with("queued", (qc) =>
            (qc as unknown as QueryCreator<DB & Changed>)
              .insertInto("job")
              .columns(columnsOf(jobs[0]!))
              .expression(
                jobs
                  .slice(1)
                  .reduce(
                    (union, job) => union.unionAll(fromChanged(qc as unknown as QueryCreator<Changed>, job)),
                    fromChanged(qc as unknown as QueryCreator<Changed>, jobs[0]!),
                  ),
              ),
          )
          .selectFrom("changed")
          .select("id")
          .execute();
  return rows.length > 0;
}
