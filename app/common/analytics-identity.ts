// Spec §9: analytics persist in local storage. What a browser keeps (decision 122), declared once
// for the console that keeps it and the API that reads it with a page view.

/** The analytics identity a browser keeps in its local storage, never in a cookie. */
export interface AnalyticsIdentity {
  /** The signed-in user's id: every event from this browser carries it. */
  distinctId: string;
  /** Identify went from this browser: the user's e-mail and name are set once. */
  identified: boolean;
  /** The firm's name, registered as a property of every event. */
  firm: string;
}

/** What a browser sends with a page view: who it speaks for and whether identify is still due. */
export type BrowserIdentity = Pick<AnalyticsIdentity, "distinctId" | "identified">;

/** The API's answer to a page view: what the browser keeps next. */
export type PageViewAnswer = Pick<AnalyticsIdentity, "identified" | "firm">;

/** The fields of the browser's page view to the console (POST /resources/page-view). */
export const PAGE_VIEW_FIELDS = { path: "path", distinctId: "distinctId", identified: "identified" } as const;
