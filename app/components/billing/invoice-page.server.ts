import { data, redirect } from "@remix-run/node";
import { allows } from "../../common/access";
import type { InvoiceLines } from "../../common/invoice-lines";
import { billing } from "../../common/resources/billing";
import { ApiError } from "../../utils/api.server";
import { requireUser } from "../../utils/auth.server";
import { redirectWithToast } from "../../utils/toast.server";
import { invoicePath } from "./paths";

// One invoice on /billing (decision 112): its lines, the PDF, and Pay for a role with FULL on the
// firm while something is due. Pay is a plain form post answered with a redirect to the payment
// provider's hosted page, so it works without JavaScript.

const q = encodeURIComponent;

export interface InvoiceRecord {
  id: string;
  number: number;
  kind: "INVOICE" | "CREDIT_NOTE";
  month: string;
  status: string;
  total_cents: number;
  due_cents: number;
  currency: string;
  note: string;
  corrects_invoice_id: string | null;
  created_at: number;
}

export async function invoicePageData(request: Request, id: string) {
  const { me, api } = await requireUser(request, billing.accessKey);
  const [invoice, lines] = await Promise.all([
    api.json<InvoiceRecord>(`${billing.apiPath}/${q(id)}`),
    api.json<InvoiceLines>(`${billing.apiPath}/${q(id)}/lines`),
  ]);
  const paidReturn = new URL(request.url).searchParams.get("paid") === "1";
  return data({
    invoice: invoice.data,
    lines: lines.data.lines,
    canPay: lines.data.can_pay && allows(me.userRole[billing.accessKey], "write"),
    // Back from the provider before its webhook arrived: the page says the payment is on its way.
    paymentPending: paidReturn && invoice.data.status === "OPEN",
    pageTitle: { key: "resources:billing.page.title", values: { number: invoice.data.number } },
  });
}

export async function invoicePageAction(request: Request, id: string) {
  const { api } = await requireUser(request, billing.accessKey);
  try {
    const { data: answer } = await api.json<{ url: string }>(`${billing.apiPath}/${q(id)}/pay`, { method: "POST" });
    return redirect(answer.url);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // 'ClientPay Service error' from the API, or why nothing is due; said on the invoice's page.
    const key = error.status === 409 ? "errors:invoiceNotDue" : error.status === 403 ? "errors:forbidden" : "errors:clientPay";
    return redirectWithToast(request, invoicePath(id), { type: "error", key });
  }
}
