import Stripe from "stripe";
import type { Kysely } from "kysely";
import { formatCents } from "../../app/common/billing";
import type { Config } from "../config";
import type { DB } from "../db/schema";
import { logEvent } from "../queue/event-log";
import { OutboundGuard, type OutboundPurpose } from "../outbound/guard";

// Paying an invoice (decision 112): one interface for a payment provider, and its one
// implementation on Stripe's official SDK: a hosted Checkout Session for the invoice's amount due,
// and the signed `checkout.session.completed` webhook that records the payment. A payment is
// recorded once per invoice (its primary key) and once per session, so a replayed or repeated
// event changes nothing. The SDK's calls go through the outbound guard like every other vendor's.

export interface CheckoutRequest {
  invoiceId: string;
  invoiceNumber: number;
  firmId: number;
  amountCents: number;
  currency: "USD";
  description: string;
  successUrl: string;
  cancelUrl: string;
}

export interface CompletedCheckout {
  eventId: string;
  sessionId: string;
  invoiceId: string;
  amountCents: number;
  currency: string;
  paid: boolean;
}

export interface PaymentProvider {
  readonly name: string;
  createCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }>;
  /** The event a webhook delivered, once its signature holds; null for events of no interest. Throws when the signature does not hold. */
  completedCheckout(payload: string | Buffer, signature: string): CompletedCheckout | null;
}

/** The provider cannot be reached or refused the request: 'ClientPay Service error'. */
export class PaymentProviderError extends Error {}

/** Where the SDK calls: Stripe's API, or the operator's local server (tests, the demo). */
export function stripeEndpoint(config: Pick<Config, "ECFX_STRIPE_BASE_URL">): { host: string; port: number; protocol: "http" | "https" } | null {
  if (!config.ECFX_STRIPE_BASE_URL) return null;
  const url = new URL(config.ECFX_STRIPE_BASE_URL);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: Number(url.port || (protocol === "http" ? 80 : 443)), protocol };
}

const STRIPE_PURPOSE: OutboundPurpose = { name: "payment provider", hostAllowed: (host) => host === "api.stripe.com" };

export class StripeProvider implements PaymentProvider {
  readonly name = "stripe";
  private readonly stripe: Stripe;

  constructor(
    private readonly secretKey: string,
    private readonly webhookSecret: string,
    options: { endpoint: ReturnType<typeof stripeEndpoint>; guard: OutboundGuard },
  ) {
    // The SDK's fetch client, handed the guard's fetch: the one outbound way out.
    const guardedFetch = ((input: string | URL, init?: RequestInit) =>
      options.guard.fetch(new URL(String(input)), STRIPE_PURPOSE, init as never)) as unknown as typeof fetch;
    this.stripe = new Stripe(secretKey, {
      httpClient: Stripe.createFetchHttpClient(guardedFetch),
      maxNetworkRetries: 1,
      timeout: 15_000,
      ...(options.endpoint ?? {}),
    });
  }

  async createCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }> {
    try {
      const session = await this.stripe.checkout.sessions.create(
        {
          mode: "payment",
          client_reference_id: request.invoiceId,
          metadata: { invoice_id: request.invoiceId, firm_id: String(request.firmId) },
          line_items: [
            {
              quantity: 1,
              price_data: { currency: request.currency.toLowerCase(), unit_amount: request.amountCents, product_data: { name: request.description } },
            },
          ],
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        // One session per invoice and amount: a second click while the first is open gets the same one.
        { idempotencyKey: `invoice-${request.invoiceId}-${request.amountCents}` },
      );
      if (!session.url) throw new PaymentProviderError("the checkout session has no URL");
      return { sessionId: session.id, url: session.url };
    } catch (error) {
      if (error instanceof PaymentProviderError) throw error;
      throw new PaymentProviderError(error instanceof Error ? error.message : String(error));
    }
  }

  completedCheckout(payload: string | Buffer, signature: string): CompletedCheckout | null {
    const event = this.stripe.webhooks.constructEvent(payload, signature, this.webhookSecret);
    if (event.type !== "checkout.session.completed") return null;
    const session = event.data.object;
    const invoiceId = session.metadata?.invoice_id ?? session.client_reference_id;
    if (!invoiceId) return null;
    return {
      eventId: event.id,
      sessionId: session.id,
      invoiceId,
      amountCents: session.amount_total ?? 0,
      currency: (session.currency ?? "usd").toUpperCase(),
      paid: session.payment_status === "paid" || session.payment_status === "no_payment_required",
    };
  }
}

/** The installation's provider, when the operator set Stripe's two secrets. */
export function paymentProviderOf(config: Config): PaymentProvider | null {
  if (!config.ECFX_STRIPE_SECRET_KEY || !config.ECFX_STRIPE_WEBHOOK_SECRET) return null;
  const endpoint = stripeEndpoint(config);
  const guard = new OutboundGuard({
    allowedOrigins: config.ECFX_STRIPE_BASE_URL ? [config.ECFX_STRIPE_BASE_URL] : [],
    allowedRanges: config.ECFX_OUTBOUND_ALLOW,
  });
  return new StripeProvider(config.ECFX_STRIPE_SECRET_KEY, config.ECFX_STRIPE_WEBHOOK_SECRET, { endpoint, guard });
}

/**
 * Records a completed checkout as the invoice's payment, once: a replay, a second session of the
 * same invoice or an amount that is not what the session was opened for records nothing more.
 * Answers whether this call recorded it.
 */
export async function recordPayment(db: Kysely<DB>, provider: string, done: CompletedCheckout, now: number): Promise<"recorded" | "already" | "unknown"> {
  if (!done.paid) return "unknown";
  return db.transaction().execute(async (trx) => {
    const checkout = await trx.selectFrom("invoice_checkout").selectAll().where("session_id", "=", done.sessionId).executeTakeFirst();
    if (!checkout || checkout.invoice_id !== done.invoiceId || checkout.amount_cents !== done.amountCents) return "unknown";
    const inserted = await trx
      .insertInto("invoice_payment")
      .values({
        invoice_id: checkout.invoice_id,
        firm_id: checkout.firm_id,
        provider,
        session_id: done.sessionId,
        event_id: done.eventId,
        amount_cents: done.amountCents,
        currency: done.currency,
        paid_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .returning("invoice_id")
      .executeTakeFirst();
    if (!inserted) return "already";
    const invoice = await trx.selectFrom("invoice").select("number").where("id", "=", checkout.invoice_id).executeTakeFirstOrThrow();
    await logEvent(trx, {
      firmId: checkout.firm_id,
      level: "AUDIT",
      event: "invoice paid",
      detail: `Invoice ${invoice.number} paid, ${formatCents(done.amountCents, done.currency)}, ${provider} session ${done.sessionId}`,
      at: now,
    });
    return "recorded";
  });
}
