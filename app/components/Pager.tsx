import { Text } from "../utils/mantine";
import { Row } from "./Row";
import { useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PlainButtonLink } from "./PlainButtonLink";
import { PlainButton } from "./table/PlainFields";

/** A link to another page, or a disabled button where there is none (no link to page 0). */
function PageLink({ to, label }: { to: string | null; label: string }) {
  return to ? (
    <PlainButtonLink to={to} size="xs" variant="default">
      {label}
    </PlainButtonLink>
  ) : (
    <PlainButton type="button" size="xs" variant="default" disabled>
      {label}
    </PlainButton>
  );
}

/**
 * Previous/next as real links that keep the rest of the query, so paging works without JS. A
 * table gives its own links (`neighbours`: with the API's cursor of each page, decision 121).
 */
export function Pager({ page, size, total, neighbours }: { page: number; size: number; total: number; neighbours?: { previous: string; next: string } }) {
  const { t } = useTranslation();
  const location = useLocation();
  const pages = Math.max(1, Math.ceil(total / size));
  const href = (p: number) => {
    const params = new URLSearchParams(location.search);
    params.set("page", String(p));
    params.set("size", String(size));
    return `${location.pathname}?${params.toString()}`;
  };
  const previous = neighbours?.previous ?? href(page - 1);
  const next = neighbours?.next ?? href(page + 1);
  return (
    <Row gap="xs">
      <Text size="sm" c="dimmed">
        {t("table.total", { count: total })} · {t("table.pageOf", { page, pages })}
      </Text>
      <PageLink to={page > 1 ? previous : null} label={t("table.previous")} />
      <PageLink to={page < pages ? next : null} label={t("table.next")} />
    </Row>
  );
}
