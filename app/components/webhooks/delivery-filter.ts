import { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryStatus } from "../../common/resources/webhooks";

// The delivery log's filter lives in the address: read by the loader, written by the page's links.

export interface DeliveryFilter {
  status: WebhookDeliveryStatus | "";
  page: number;
}

export function deliveryFilterOf(url: URL): DeliveryFilter {
  const status = url.searchParams.get("status") ?? "";
  const page = Number(url.searchParams.get("page") ?? "1");
  return {
    status: (WEBHOOK_DELIVERY_STATUSES as readonly string[]).includes(status) ? (status as WebhookDeliveryStatus) : "",
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The address of the page with this filter: what the table's links and the filter form lead to. */
export function deliveriesPath(id: string, filter: DeliveryFilter): string {
  const params = new URLSearchParams();
  if (filter.status) params.set("status", filter.status);
  if (filter.page > 1) params.set("page", String(filter.page));
  const search = params.toString();
  return `/webhooks/${encodeURIComponent(id)}/deliveries${search ? `?${search}` : ""}`;
}
