// ECFX Track and case retrieve as both sides speak of them (spec §4, decision 054): the console
// offers the actions a state allows, the API allows the same ones and refuses the others.

export const TRACKING_ACTIONS = ["subscribe", "stop", "resume", "unsubscribe"] as const;
export type TrackingAction = (typeof TRACKING_ACTIONS)[number];
export type TrackingState = "NOT_TRACKED" | "TRACKED" | "STOPPED";

/** The states each action starts from. */
export const TRACKING_FROM: Record<TrackingAction, readonly TrackingState[]> = {
  subscribe: ["NOT_TRACKED"],
  stop: ["TRACKED"],
  resume: ["STOPPED"],
  unsubscribe: ["TRACKED", "STOPPED"],
};

export const isTrackingAction = (value: unknown): value is TrackingAction =>
  typeof value === "string" && (TRACKING_ACTIONS as readonly string[]).includes(value);

/** The actions a case in this state offers, in the order the page shows them. */
export const trackingActionsFrom = (state: TrackingState): TrackingAction[] => TRACKING_ACTIONS.filter((a) => TRACKING_FROM[a].includes(state));

export interface TrackingPeriod {
  started_at: number;
  ended_at: number | null;
  monthly_fee_cents: number;
  per_document_cents: number;
  documents: number;
  /** The per-document cost of the period so far. */
  document_cost_cents: number;
  currency: string;
}

/** GET /api/v1/case/{id}/tracking. */
export interface TrackingView {
  state: TrackingState;
  subscribed_at: number | null;
  stopped_at: number | null;
  resumed_at: number | null;
  /** The running subscription's prices, or what a subscription costs now. */
  monthly_fee_cents: number;
  per_document_cents: number;
  currency: "USD";
  periods: TrackingPeriod[];
  can_change?: boolean;
}

/** Spec §4 case retrieve status. */
export const RETRIEVE_STATUSES = [
  "None",
  "Updating",
  "Update Succeeded",
  "Update Failed",
  "Retrieve Succeeded",
  "Retrieve In Progress",
  "Retrieve Failed",
] as const;
export type RetrieveStatus = (typeof RETRIEVE_STATUSES)[number];

/** "update": new docket entries from the court; "documents": the documents the case already lists. */
export const RETRIEVE_MODES = ["update", "documents"] as const;
export type RetrieveMode = (typeof RETRIEVE_MODES)[number];

/** GET /api/v1/case/{id}/retrieve. */
export interface RetrieveView {
  status: RetrieveStatus;
  reason: string;
  updated_at: number | null;
  court_id: string | null;
  court_connected: boolean;
  can_change?: boolean;
}

/** The statuses of each kind of retrieve: while its job runs, and how it ended. */
export const RETRIEVE_STEPS: Record<RetrieveMode, { running: RetrieveStatus; succeeded: RetrieveStatus; failed: RetrieveStatus }> = {
  update: { running: "Updating", succeeded: "Update Succeeded", failed: "Update Failed" },
  documents: { running: "Retrieve In Progress", succeeded: "Retrieve Succeeded", failed: "Retrieve Failed" },
};

/** Whether a retrieve of the case is under way (its job has not finished). */
export const retrieveUnderWay = (status: RetrieveStatus) => RETRIEVE_MODES.some((mode) => RETRIEVE_STEPS[mode].running === status);
