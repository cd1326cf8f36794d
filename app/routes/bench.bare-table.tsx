import { readFile } from "node:fs/promises";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { findResource } from "../common/resources";
import { pageNotFound } from "../utils/not-found.server";

// The benchmarks' baseline (tests/bench/search.ts): the rows of the case list page drawn by the
// plainest page of the same stack, with no API call, so the list page's cost reads as "N× the bare
// render". It exists only when ECFX_BENCH_BARE_ROWS names the file of rows the benchmark wrote.

const rowsByFile = new Map<string, Promise<Record<string, unknown>[]>>();
function benchRows(file: string) {
  let rows = rowsByFile.get(file);
  if (!rows) {
    rows = readFile(file, "utf8").then((text) => JSON.parse(text) as Record<string, unknown>[]);
    rowsByFile.set(file, rows);
  }
  return rows;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const file = process.env.ECFX_BENCH_BARE_ROWS;
  if (!file) return pageNotFound(request);
  const fields = (findResource("cases")?.columns ?? []).map((c) => c.field);
  const rows = (await benchRows(file)).map((row) => fields.map((f) => (row[f] === null || row[f] === undefined ? "" : String(row[f]))));
  return { fields, rows };
}

export default function BareTable() {
  const { fields, rows } = useLoaderData<typeof loader>();
  return (
    <table>
      <thead>
        <tr>
          {fields.map((f) => (
            <th key={f}>{f}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((cells, i) => (
          <tr key={i}>
            {cells.map((cell, j) => (
              <td key={fields[j]}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
