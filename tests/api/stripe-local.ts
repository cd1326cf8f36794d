import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Ajv from "ajv";
import Stripe from "stripe";

// A local server speaking Stripe's API for the payment tests: every request is checked against
// Stripe's published OpenAPI description (tests/fixtures/stripe, PROVENANCE.md): its path and
// method must be an operation of it, its form-encoded parameters must validate against the
// operation's schema; every answer is built from Stripe's published example and must validate
// against the response schema. Anything else is a violation the test sees.

const SPEC = JSON.parse(readFileSync(new URL("../fixtures/stripe/checkout-sessions.openapi.json", import.meta.url), "utf8")) as {
  paths: Record<string, Record<string, { operationId: string; requestBody: { content: Record<string, { schema: object }> } }>>;
};
/** OpenAPI 3.0's `nullable: true` as JSON Schema says it: the schema, or null. */
function jsonSchemaOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(jsonSchemaOf);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) if (k !== "nullable") out[k] = jsonSchemaOf(v);
  return (node as { nullable?: boolean }).nullable ? { anyOf: [out, { type: "null" }] } : out;
}

/** Stripe's form encoding, `line_items[0][price_data][currency]=usd`, read back into objects and arrays. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.match(/^[^[]+|\[[^\]]*\]/g)!.map((p) => p.replace(/^\[|\]$/g, ""));
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]!);
      const slot = Array.isArray(node) ? Number(part) : part;
      const container = node as Record<string | number, unknown>;
      if (last) container[slot] = value;
      else {
        container[slot] ??= nextIsIndex ? [] : {};
        node = container[slot] as Record<string, unknown> | unknown[];
      }
    });
  }
  return root;
}

const signer = new Stripe("sk_test_local_signer");

const EXAMPLES = JSON.parse(readFileSync(new URL("../fixtures/stripe/fixtures.json", import.meta.url), "utf8")) as Record<string, Record<string, unknown>>;

export interface LocalStripe {
  url: string;
  /** What the server refused or could not answer validly; a passing test expects none. */
  violations: string[];
  /** Sessions created, by id, as last answered. */
  sessions: Map<string, Record<string, unknown>>;
  /** Requests received, with their parsed parameters. */
  requests: { method: string; path: string; params: Record<string, unknown>; idempotencyKey: string | undefined }[];
  /** The next create answers this HTTP status with a Stripe error. */
  failNext(status: number): void;
  /** The `checkout.session.completed` event of a session, paid, as Stripe would send it (unsigned). */
  completedEvent(sessionId: string): string;
  close(): Promise<void>;
}

/**
 * `hosted`: the server also plays Stripe's hosted Checkout page for the browser tests: the session's
 * URL is a page of its own with a Pay button, which sends the signed `checkout.session.completed`
 * event to the webhook and returns the browser to the session's success URL.
 */
export async function startLocalStripe(options: { port?: number; hosted?: { webhookUrl: string; secret: string } } = {}): Promise<LocalStripe> {
  const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: "array" });
  ajv.addFormat("unix-time", true);
  ajv.addFormat("decimal", /^-?\d+(\.\d+)?$/);
  const spec = jsonSchemaOf(SPEC) as object;
  ajv.addSchema(spec, "stripe");
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  const requestSchema = (path: string, method: string) => {
    const op = SPEC.paths[path]?.[method];
    if (!op) return null;
    const key = `${method} ${path}`;
    if (!compiled.has(key))
      compiled.set(
        key,
        ajv.compile({ $ref: `stripe#/paths/${path.replace(/\//g, "~1")}/${method}/requestBody/content/application~1x-www-form-urlencoded/schema` }),
      );
    return compiled.get(key)!;
  };
  const strictAjv = new Ajv({ strict: false, allErrors: true });
  strictAjv.addFormat("unix-time", true);
  strictAjv.addFormat("decimal", /^-?\d+(\.\d+)?$/);
  strictAjv.addSchema(spec, "stripe");
  const sessionSchema = strictAjv.compile({ $ref: "stripe#/components/schemas/checkout.session" });
  const eventSchema = strictAjv.compile({ $ref: "stripe#/components/schemas/event" });

  const violations: string[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  const requests: LocalStripe["requests"] = [];
  const byKey = new Map<string, string>();
  let failing: number | null = null;
  let base = "";

  /** The hosted page: GET shows the amount and Pay; POST pays, tells the webhook, returns to the success URL. */
  const hostedPage = async (req: http.IncomingMessage, res: http.ServerResponse, id: string) => {
    const session = sessions.get(id)!;
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(
        `<!doctype html><title>Checkout</title><main><h1>Pay ${Number(session.amount_total) / 100} ${String(session.currency).toUpperCase()}</h1><form method="post"><button type="submit">Pay</button></form></main>`,
      );
    }
    const payload = completedEvent(id);
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: options.hosted!.secret });
    const delivered = await fetch(options.hosted!.webhookUrl, {
      method: "POST",
      body: payload,
      headers: { "content-type": "application/json", "stripe-signature": signature },
    });
    if (!delivered.ok) violations.push(`webhook answered ${delivered.status}`);
    res.writeHead(303, { location: String(session.success_url) });
    res.end();
  };

  const error = (res: http.ServerResponse, status: number, text: string) => {
    res.writeHead(status, { "content-type": "application/json", "request-id": `req_${randomUUID()}` });
    res.end(JSON.stringify({ error: { type: status >= 500 ? "api_error" : "invalid_request_error", message: text } }));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://stripe.local");
      const hostedId = /^\/checkout\/(cs_test_\w+)$/.exec(url.pathname)?.[1];
      if (options.hosted && hostedId && sessions.has(hostedId)) {
        void hostedPage(req, res, hostedId);
        return;
      }
      // The hosted page's browser asks for its icon: part of the page, not of Stripe's API.
      if (options.hosted && url.pathname === "/favicon.ico") {
        res.writeHead(404);
        return res.end();
      }
      const method = (req.method ?? "GET").toLowerCase();
      const body = Buffer.concat(chunks).toString("utf8");
      const params = parseStripeForm(body);
      const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
      requests.push({ method, path: url.pathname, params, idempotencyKey });
      const validate = requestSchema(url.pathname, method);
      if (!validate) {
        violations.push(`${method.toUpperCase()} ${url.pathname} is no operation of the description`);
        return error(res, 404, `Unrecognized request URL (${method.toUpperCase()}: ${url.pathname}).`);
      }
      if (!/^Bearer sk_test_/.test(req.headers.authorization ?? "")) {
        violations.push("no secret key");
        return error(res, 401, "Invalid API Key provided");
      }
      if (!String(req.headers["content-type"]).startsWith("application/x-www-form-urlencoded")) {
        violations.push(`content type ${req.headers["content-type"]}`);
        return error(res, 400, "Invalid content type");
      }
      const checked = structuredClone(params);
      if (!validate(checked)) {
        violations.push(`parameters: ${ajv.errorsText(validate.errors)}`);
        return error(res, 400, ajv.errorsText(validate.errors));
      }
      if (failing !== null) {
        const status = failing;
        failing = null;
        return error(res, status, "An error occurred with our connection to Stripe.");
      }
      const known = idempotencyKey ? byKey.get(idempotencyKey) : undefined;
      if (known) {
        res.writeHead(200, { "content-type": "application/json", "idempotent-replayed": "true" });
        return res.end(JSON.stringify(sessions.get(known)));
      }
      const p = checked as { line_items?: { quantity?: number; price_data?: { unit_amount?: number; currency?: string } }[]; [k: string]: unknown };
      const total = (p.line_items ?? []).reduce((sum, l) => sum + (l.quantity ?? 1) * (l.price_data?.unit_amount ?? 0), 0);
      const id = `cs_test_${randomUUID().replace(/-/g, "")}`;
      const session = {
        ...EXAMPLES["checkout.session"],
        id,
        amount_subtotal: total,
        amount_total: total,
        currency: p.line_items?.[0]?.price_data?.currency ?? "usd",
        client_reference_id: p.client_reference_id ?? null,
        metadata: p.metadata ?? {},
        mode: p.mode,
        success_url: p.success_url,
        cancel_url: p.cancel_url ?? null,
        payment_intent: null,
        payment_status: "unpaid",
        status: "open",
        expires_at: Math.floor(Date.now() / 1000) + 86_400,
        url: options.hosted ? `${base}/checkout/${id}` : `https://checkout.stripe.com/c/pay/${id}`,
      };
      if (!sessionSchema(session)) violations.push(`answer: ${strictAjv.errorsText(sessionSchema.errors)}`);
      sessions.set(id, session);
      if (idempotencyKey) byKey.set(idempotencyKey, id);
      res.writeHead(200, { "content-type": "application/json", "request-id": `req_${randomUUID()}` });
      res.end(JSON.stringify(session));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;

  return {
    url: `http://127.0.0.1:${port}`,
    violations,
    sessions,
    requests,
    failNext: (status) => {
      failing = status;
    },
    completedEvent,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  function completedEvent(sessionId: string): string {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const event = {
      ...EXAMPLES.event,
      id: `evt_${randomUUID().replace(/-/g, "")}`,
      created: Math.floor(Date.now() / 1000),
      type: "checkout.session.completed",
      data: { object: { ...session, status: "complete", payment_status: "paid", payment_intent: `pi_${randomUUID().replace(/-/g, "")}` } },
    };
    if (!eventSchema(event)) violations.push(`event: ${strictAjv.errorsText(eventSchema.errors)}`);
    return JSON.stringify(event);
  }
}
