// An invoice's lines as the API answers them (GET /api/v1/invoice/:id/lines), declared once: the
// server builds its answer to this type (server/api/routes/billing.ts) and the console draws it.

export interface InvoiceLine {
  position: number;
  service_kind: string;
  case_id: string | null;
  description: string;
  quantity: string;
  amount_cents: number;
}

export interface InvoiceLines {
  lines: InvoiceLine[];
  status: string;
  due_cents: number;
  can_pay: boolean;
}
