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

/** Who holds which policy for a case: the case, its matter, and the matter's client, practice group and location. */
export async function policyHoldersOfCase(db: Kysely<DB>, firmId: number, caseId: string): Promise<{ hierarchy: HierarchyLevel[]; holders: PolicyHolders }> {
  const row = await db
    .selectFrom("firm")
    .leftJoin("court_case", (join) => join.on("court_case.id", "=", caseId).on("court_case.firm_id", "=", firmId))
    .leftJoin("matter", (join) => join.onRef("matter.id", "=", "court_case.matter_id").on("matter.firm_id", "=", firmId))
    .leftJoin("client", (join) => join.onRef("client.id", "=", "matter.client_id").on("client.firm_id", "=", firmId))
    .leftJoin("practice_group", (join) => join.onRef("practice_group.id", "=", "matter.practice_group_id").on("practice_group.firm_id", "=", firmId))
    .leftJoin("location", (join) => join.onRef("location.id", "=", "matter.location_id").on("location.firm_id", "=", firmId))
    .select([
      "firm.storage_policy_hierarchy as hierarchy",
      "firm.storage_policy_id as firm",
      "location.storage_policy_id as location",
      "practice_group.storage_policy_id as practice_group",
      "client.storage_policy_id as client",
      "matter.storage_policy_id as matter",
      "court_case.storage_policy_id as case",
    ])
    .where("firm.id", "=", firmId)
    .executeTakeFirst();
  const holders: PolicyHolders = {
    firm: row?.firm ?? null,
    location: row?.location ?? null,
    practice_group: row?.practice_group ?? null,
    client: row?.client ?? null,
    matter: row?.matter ?? null,
    case: row?.case ?? null,
  };
  return { hierarchy: normaliseHierarchy(row?.hierarchy), holders };
}

export interface ResolvedPolicy {
  level: HierarchyLevel;
  policy: StoragePolicy;
}

/**
 * The storage policy for a notice on this case, or null when no level names one. A level whose
 * policy no longer exists in the firm counts as naming none.
 */
export async function resolveStoragePolicy(db: Kysely<DB>, firmId: number, caseId: string): Promise<ResolvedPolicy | null> {
  const { hierarchy, holders } = await policyHoldersOfCase(db, firmId, caseId);
  const ids = [...new Set(Object.values(holders).filter((id): id is string => Boolean(id)))];
  if (ids.length === 0) return null;
  const policies = await db.selectFrom("storage_policy").selectAll().where("firm_id", "=", firmId).where("id", "in", ids).execute();
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
export async function policyChain(db: Kysely<DB>, firmId: number, first: StoragePolicy): Promise<StoragePolicy[]> {
  const chain = [first];
  let next = first.additional_storage_policy_id;
  while (next && !chain.some((p) => p.id === next)) {
    const policy = await db.selectFrom("storage_policy").selectAll().where("firm_id", "=", firmId).where("id", "=", next).executeTakeFirst();
    if (!policy) break;
    chain.push(policy);
    next = policy.additional_storage_policy_id;
  }
  return chain;
}
