import type { Kysely } from "kysely";
import { SERVICE_KINDS, type ServiceKind, type TimeUnit, isServiceKind, isTimeUnit } from "../../app/common/billing";
import type { Config } from "../config";
import type { DB } from "../db/schema";
import { newId } from "../lib/ids";

// The installation's price list (one entry per service kind, set by the operator) and each firm's
// subscriptions to the service kinds, each at the price of the day it began (decision 111). A
// subscription that ends and begins again is a new row: what is billed changes from that day.

export interface Price {
  service_kind: ServiceKind;
  amount_cents: number;
  time_unit: TimeUnit;
  per_document_cents: number;
  currency: "USD";
}

/** The entries an installation starts with: ECFX Track from its two settings, the rest free until the operator prices them. */
export function defaultPrices(config: Pick<Config, "ECFX_TRACK_MONTHLY_FEE_CENTS" | "ECFX_TRACK_PER_DOCUMENT_CENTS">): Price[] {
  return SERVICE_KINDS.map((kind) =>
    kind === "ECFX_TRACK"
      ? {
          service_kind: kind,
          amount_cents: config.ECFX_TRACK_MONTHLY_FEE_CENTS,
          time_unit: "MONTH",
          per_document_cents: config.ECFX_TRACK_PER_DOCUMENT_CENTS,
          currency: "USD",
        }
      : { service_kind: kind, amount_cents: 0, time_unit: "MONTH", per_document_cents: 0, currency: "USD" },
  );
}

/** Writes the missing entries of the price list; entries the operator set stay as they are. */
export async function ensurePriceList(db: Kysely<DB>, config: Parameters<typeof defaultPrices>[0], now: number): Promise<void> {
  for (const price of defaultPrices(config)) {
    await db
      .insertInto("billing_price")
      .values({ ...price, updated_at: now })
      .onConflict((oc) => oc.column("service_kind").doNothing())
      .execute();
  }
}

export async function priceList(db: Kysely<DB>, config: Parameters<typeof defaultPrices>[0]): Promise<Price[]> {
  const rows = await db.selectFrom("billing_price").selectAll().execute();
  return defaultPrices(config).map((fallback) => {
    const row = rows.find((r) => r.service_kind === fallback.service_kind);
    if (!row || !isTimeUnit(row.time_unit)) return fallback;
    return {
      service_kind: fallback.service_kind,
      amount_cents: row.amount_cents,
      time_unit: row.time_unit,
      per_document_cents: row.per_document_cents,
      currency: "USD",
    };
  });
}

export async function priceOf(db: Kysely<DB>, config: Parameters<typeof defaultPrices>[0], kind: ServiceKind): Promise<Price> {
  return (await priceList(db, config)).find((p) => p.service_kind === kind)!;
}

/** "ECFX_TRACK=2500/MONTH+10": an entry as the operator types it. */
export function parsePriceEntry(text: string): Price | string {
  const m = /^([A-Z_]+)=(\d{1,9})\/([A-Z]+)(?:\+(\d{1,9}))?$/.exec(text.trim());
  if (!m) return `"${text}" is not KIND=CENTS/UNIT or KIND=CENTS/UNIT+DOCUMENT_CENTS`;
  const [, kind, cents, unit, doc] = m;
  if (!isServiceKind(kind)) return `unknown service kind ${kind}; one of ${SERVICE_KINDS.join(", ")}`;
  if (!isTimeUnit(unit)) return `unknown time unit ${unit}`;
  return { service_kind: kind, amount_cents: Number(cents), time_unit: unit, per_document_cents: Number(doc ?? 0), currency: "USD" };
}

export async function setPrice(db: Kysely<DB>, price: Price, now: number): Promise<void> {
  await db
    .insertInto("billing_price")
    .values({ ...price, updated_at: now })
    .onConflict((oc) =>
      oc
        .column("service_kind")
        .doUpdateSet({ amount_cents: price.amount_cents, time_unit: price.time_unit, per_document_cents: price.per_document_cents, updated_at: now }),
    )
    .execute();
}

/** The service kinds a firm subscribes to now. */
export async function activeServices(db: Kysely<DB>, firmId: number): Promise<ServiceKind[]> {
  const rows = await db.selectFrom("firm_service").select("service_kind").where("firm_id", "=", firmId).where("ended_at", "is", null).execute();
  return rows.map((r) => r.service_kind).filter(isServiceKind);
}

/**
 * Makes the firm's subscriptions among `kinds` exactly `wanted`, from `now`: an ended one is
 * closed, a new one opens at today's price. Returns what changed.
 */
export async function syncServices(
  db: Kysely<DB>,
  config: Parameters<typeof defaultPrices>[0],
  firmId: number,
  kinds: readonly ServiceKind[],
  wanted: readonly ServiceKind[],
  now: number,
): Promise<{ started: ServiceKind[]; ended: ServiceKind[] }> {
  const prices = await priceList(db, config);
  return db.transaction().execute(async (trx) => {
    const open = await trx.selectFrom("firm_service").select(["id", "service_kind"]).where("firm_id", "=", firmId).where("ended_at", "is", null).execute();
    const started: ServiceKind[] = [];
    const ended: ServiceKind[] = [];
    for (const kind of kinds) {
      const row = open.find((r) => r.service_kind === kind);
      if (row && !wanted.includes(kind)) {
        await trx.updateTable("firm_service").set({ ended_at: now }).where("id", "=", row.id).execute();
        ended.push(kind);
      } else if (!row && wanted.includes(kind)) {
        const price = prices.find((p) => p.service_kind === kind)!;
        await trx
          .insertInto("firm_service")
          .values({ id: newId(), firm_id: firmId, ...price, started_at: now, ended_at: null })
          .execute();
        started.push(kind);
      }
    }
    return { started, ended };
  });
}
