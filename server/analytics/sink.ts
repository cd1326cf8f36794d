// Where analytics go: nowhere by default (no outside network unless configured), or to a
// Mixpanel-compatible HTTP endpoint. The browser never loads a third-party script: the API sends.

export interface PageView {
  distinctId: string;
  title: string;
  path: string;
  /** Registered on every event of the user (a super property). */
  firm: string;
}

export interface Person {
  distinctId: string;
  email: string;
  name: string;
}

export interface AnalyticsSink {
  /** Who the user is: e-mail and name, set once (a later change in ECFX does not overwrite them). */
  identify(person: Person): Promise<void>;
  /** The 'View Page' event. */
  pageView(view: PageView): Promise<void>;
}

export const OFF: AnalyticsSink = { identify: async () => {}, pageView: async () => {} };

const TIMEOUT_MS = 2_000;

/** Mixpanel's ingestion API: JSON arrays POSTed to /track and /engage, the project token in each. */
export function mixpanelSink(baseUrl: string, token: string, now: () => number): AnalyticsSink {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(new URL(path, baseUrl), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/plain" },
      body: JSON.stringify([body]),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`analytics ${path} answered ${res.status}`);
  };
  return {
    identify: (p) => post("/engage?verbose=1", { $token: token, $distinct_id: p.distinctId, $set_once: { $email: p.email, $name: p.name } }),
    pageView: (v) =>
      post("/track?verbose=1", {
        event: "View Page",
        properties: { token, distinct_id: v.distinctId, time: now(), $insert_id: `${v.distinctId}-${now()}`, title: v.title, path: v.path, firm: v.firm },
      }),
  };
}
