import { Alert, Anchor, Badge, Button, Group, Stack, Table, Text, Title } from "../utils/mantine";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatCents } from "../common/billing";
import { invoicePageAction, invoicePageData } from "../components/billing/invoice-page.server";
import { invoicePath } from "../components/billing/paths";
import { useFormatMoment } from "../utils/dates";

// One invoice or credit note of /billing: its lines, its PDF and, while something is due, Pay.

export const handle = { titleKey: "pages.billing" };

export function loader({ request, params }: LoaderFunctionArgs) {
  return invoicePageData(request, params.id ?? "");
}

export function action({ request, params }: ActionFunctionArgs) {
  return invoicePageAction(request, params.id ?? "");
}

export default function InvoicePage() {
  const { invoice, lines, canPay, paymentPending } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["resources", "errors"]);
  const formatDate = useFormatMoment();
  const here = invoicePath(invoice.id);
  const title = t(invoice.kind === "INVOICE" ? "billing.page.title" : "billing.page.creditNoteTitle", { number: invoice.number });

  return (
    <Stack maw={1000}>
      <Anchor component={Link} to="/billing" size="sm">
        {t("billing.title")}
      </Anchor>
      <Group justify="space-between">
        <Title order={2}>{title}</Title>
        <Badge data-testid="invoice-status" color={invoice.status === "PAID" ? "green" : invoice.status === "OPEN" ? "yellow" : "gray"}>
          {t(`billing.options.status.${invoice.status}`)}
        </Badge>
      </Group>
      <Text size="sm">
        {t("billing.page.period", { month: invoice.month })} · {t("billing.page.issued", { date: formatDate(invoice.created_at) })}
      </Text>
      {invoice.corrects_invoice_id ? (
        <Anchor component={Link} to={invoicePath(invoice.corrects_invoice_id)} size="sm">
          {t("billing.page.corrects")}
        </Anchor>
      ) : null}
      {invoice.note ? <Text size="sm">{invoice.note}</Text> : null}
      {paymentPending ? <Alert color="blue">{t("billing.page.paymentPending")}</Alert> : null}
      <Table striped withTableBorder data-testid="invoice-lines">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("billing.page.description")}</Table.Th>
            <Table.Th>{t("billing.page.quantity")}</Table.Th>
            <Table.Th ta="right">{t("billing.page.amount")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((line) => (
            <Table.Tr key={line.position}>
              <Table.Td>{line.description}</Table.Td>
              <Table.Td>{line.quantity}</Table.Td>
              <Table.Td ta="right">{formatCents(line.amount_cents, invoice.currency)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th colSpan={2}>{t("billing.page.total")}</Table.Th>
            <Table.Th ta="right" data-testid="invoice-total">
              {formatCents(invoice.total_cents, invoice.currency)}
            </Table.Th>
          </Table.Tr>
          {invoice.kind === "INVOICE" ? (
            <Table.Tr>
              <Table.Th colSpan={2}>{t("billing.page.due")}</Table.Th>
              <Table.Th ta="right" data-testid="invoice-due">
                {formatCents(invoice.due_cents, invoice.currency)}
              </Table.Th>
            </Table.Tr>
          ) : null}
        </Table.Tfoot>
      </Table>
      <Group>
        <Button component="a" href={`${here}/pdf`} variant="default" download>
          {t("billing.page.downloadPdf")}
        </Button>
        {canPay ? (
          <Form method="post" action={here}>
            <Button type="submit">{t("billing.page.pay", { amount: formatCents(invoice.due_cents, invoice.currency) })}</Button>
          </Form>
        ) : null}
      </Group>
    </Stack>
  );
}
