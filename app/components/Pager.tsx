import { Button, Group, Text } from "@mantine/core";
import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** Previous/next as real links that keep the rest of the query, so paging works without JS. */
export function Pager({ page, size, total }: { page: number; size: number; total: number }) {
  const { t } = useTranslation();
  const location = useLocation();
  const pages = Math.max(1, Math.ceil(total / size));
  const href = (p: number) => {
    const params = new URLSearchParams(location.search);
    params.set("page", String(p));
    params.set("size", String(size));
    return `${location.pathname}?${params.toString()}`;
  };
  return (
    <Group gap="xs">
      <Text size="sm" c="dimmed">
        {t("table.total", { count: total })} · {t("table.pageOf", { page, pages })}
      </Text>
      <Button component={Link} to={href(page - 1)} variant="default" size="xs" disabled={page <= 1} data-disabled={page <= 1 || undefined}>
        {t("table.previous")}
      </Button>
      <Button component={Link} to={href(page + 1)} variant="default" size="xs" disabled={page >= pages} data-disabled={page >= pages || undefined}>
        {t("table.next")}
      </Button>
    </Group>
  );
}
