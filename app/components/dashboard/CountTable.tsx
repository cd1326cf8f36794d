import type { ReactNode } from "react";

interface Props {
  headers: string[];
  rows: { key: string; cells: ReactNode[] }[];
  bordered?: boolean;
  testId?: string;
  labelledBy?: string;
}

/**
 * The dashboard's tables of numbers as plain HTML, drawn as Mantine's striped Table draws them
 * (dashboard.css): the dashboard shows some eighty rows, and as Mantine components their cells
 * took a large share of the page's server render.
 */
export function CountTable({ headers, rows, bordered = false, testId, labelledBy }: Props) {
  return (
    <table className="count-table" data-bordered={bordered || undefined} data-testid={testId} aria-labelledby={labelledBy}>
      <thead>
        <tr>
          {headers.map((h) => (
            <th scope="col" key={h}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key}>
            {/* Cells of one row never move: their place is their identity. */}
            {r.cells.map((cell, i) => (
              <td key={headers[i] ?? i}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
