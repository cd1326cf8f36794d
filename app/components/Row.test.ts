import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Group, MantineProvider, Table } from "../utils/mantine";
import { Row } from "./Row";

// Row and the list page's header row draw Mantine's markup without its components: after an
// upgrade of @mantine/core they must still draw what Mantine draws.
const html = (node: ReactNode) => renderToString(createElement(MantineProvider, null, node));

describe("Row", () => {
  it("draws what Mantine's Group draws, for every way the console uses it", () => {
    const cases: Record<string, unknown>[] = [
      {},
      { gap: "xs" },
      { gap: "sm", wrap: "nowrap" },
      { gap: "lg", align: "flex-start" },
      { justify: "space-between", align: "flex-start", "data-testid": "table-toolbar" },
      { gap: 6, component: "nav", "aria-label": "Types" },
      { gap: "xs", role: "group", "aria-label": "Quick filters", className: "extra" },
    ];
    for (const props of cases) {
      const children = [createElement("span", { key: 1 }, "one"), createElement("span", { key: 2 }, "two")];
      expect(html(createElement(Row, props, children)), JSON.stringify(props)).toBe(html(createElement(Group, props, children)));
    }
    const header = { justify: "space-between", wrap: "nowrap" } as const;
    expect(html(createElement(Row, { ...header, style: { paddingInline: "var(--mantine-spacing-md)", height: "100%" } }, "x"))).toBe(
      html(createElement(Group, { ...header, px: "md", h: "100%" }, "x")),
    );
  });

  it("has the table classes the plain header row draws with", () => {
    const { thead, tr, th } = Table.classes;
    const head = html(
      createElement(Table, { highlightOnHover: true }, createElement(Table.Thead, null, createElement(Table.Tr, null, createElement(Table.Th, null, "Case")))),
    );
    expect(head).toContain(
      `<thead class="${thead} mantine-Table-thead"><tr class="${tr} mantine-Table-tr" data-with-row-border="true" data-hover="true"><th class="${th} mantine-Table-th">`,
    );
  });
});
