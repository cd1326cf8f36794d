import type { Kysely, Selectable } from "kysely";
import { HIERARCHY_LEVELS, type HierarchyLevel } from "../../app/common/resources/storage";
import type { DB, StoragePolicyTable } from "../db/schema";

// Which storage policy files a notice: the firm orders six levels from general to specific;
// the most specific level whose entity names a policy wins.

export type StoragePolicy = Selectable<StoragePolicyTable>;

/** The policy each level's entity names for one case (null: that entity names none). */
export type PolicyHolders = Record<HierarchyLevel, string | null>;

const isLevel = (value: unknown): value is HierarchyLevel => typeof value === "string" && (HIERARCHY_LEVELS as readonly string[]).includes(value);

/**
 * The firm's stored order as a full list of the six levels: unknown names and repeats dropped,
 * levels the list leaves out put first (least specific) in their default order, so a level is
 * never silently ignored.
 */
export function normaliseHierarchy(stored: unknown): HierarchyLevel[] {
  let list: unknown = stored;
  if (typeof stored === "string") {
    try {
      list = JSON.parse(stored);
    } catch {
      list = [];
    }
  }
  const named = Array.isArray(list) ? [...new Set(list.filter(isLevel))] : [];
  return [...HIERARCHY_LEVELS.filter((level) => !named.includes(level)), ...named];
}

/** Whether a list is exactly the six levels in some order. */
export function isHierarchyPermutation(list: readonly string[]): list is HierarchyLevel[] {
  return list.length === HIERARCHY_LEVELS.length && new Set(list).size === list.length && list.every(isLevel);
}

/** The most specific level (last in the order) that names a policy, with that policy's id. */
export function pickPolicy(hierarchy: readonly HierarchyLevel[], holders: PolicyHolders): { level: HierarchyLevel; policyId: string } | null {
  for (const level of [...hierarchy].reverse()) {
    const policyId = holders[level];
    if (policyId) return { level, policyId };
  }
  return null;
}

/** The policy each level's entity names, as the storage stage's read of the item selects them (filing-reads.ts). */
export interface HolderColumns {
  hierarchy: string | null;
  firm: string | null;
  location: string | null;
  practice_group: string | null;
  client: string | null;
  matter: string | null;
  case: string | null;
}

/** The firm's order and the holders, from the columns `itemWithHolders` selects. */
export function holdersOf(row: HolderColumns): { hierarchy: HierarchyLevel[]; holders: PolicyHolders } {
  const holders = Object.fromEntries(HIERARCHY_LEVELS.map((level) => [level, row[level] ?? null])) as PolicyHolders;
  return { hierarchy: normaliseHierarchy(row.hierarchy), holders };
}

export interface ResolvedPolicy {
  level: HierarchyLevel;
  policy: StoragePolicy;
}

/** The firm's policies among `ids`: from `known` (every policy the case's holders name or chain to) when read already. */
async function policiesAmong(db: Kysely<DB>, firmId: number, ids: string[], known?: StoragePolicy[]): Promise<StoragePolicy[]> {
  if (known) return known.filter((policy) => ids.includes(policy.id));
  return db.selectFrom("storage_policy").selectAll().where("firm_id", "=", firmId).where("id", "in", ids).execute();
}

/**
 * The storage policy for a notice on a case with these holders, or null when no level names one.
 * A level whose policy no longer exists in the firm counts as naming none.
 */
export async function resolveStoragePolicy(
  db: Kysely<DB>,
  firmId: number,
  { hierarchy, holders }: { hierarchy: HierarchyLevel[]; holders: PolicyHolders },
  known?: StoragePolicy[],
): Promise<ResolvedPolicy | null> {
  const ids = [...new Set(Object.values(holders).filter((id): id is string => Boolean(id)))];
  if (ids.length === 0) return null;
  const policies = await policiesAmong(db, firmId, ids, known);
  const existing = Object.fromEntries(
    HIERARCHY_LEVELS.map((level) => [level, policies.some((p) => p.id === holders[level]) ? holders[level] : null]),
  ) as PolicyHolders;
  const picked = pickPolicy(hierarchy, existing);
  return picked ? { level: picked.level, policy: policies.find((p) => p.id === picked.policyId)! } : null;
}

/**
 * The policy and the additional policies it chains to, in order. A chain that comes back to a
 * policy already in it ends there, so A → B → A stores through A and B once each.
 */
export async function policyChain(db: Kysely<DB>, firmId: number, first: StoragePolicy, known?: StoragePolicy[]): Promise<StoragePolicy[]> {
  const chain = [first];
  let next = first.additional_storage_policy_id;
  while (next && !chain.some((p) => p.id === next)) {
    const [policy] = await policiesAmong(db, firmId, [next], known);
    if (!policy) break;
    chain.push(policy);
    next = policy.additional_storage_policy_id;
  }
  return chain;
}
