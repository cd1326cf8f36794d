import { createInstance } from "i18next";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import inbox from "../../../locales/en/inbox.json";
import type { InboxCard } from "../../common/inbox-card";
import { CardSender } from "./CardHeader";

// The inbox card names who wrote a message (its From header) and, when another mailbox passed it
// on, the envelope sender it was received from (decision 104).

const i18n = createInstance();
await i18n.init({ lng: "en", ns: ["inbox"], resources: { en: { inbox } }, interpolation: { escapeValue: false } });

function render(from_address: string, sender: string): string {
  const item = { from_address, sender } as InboxCard["item"];
  return renderToStaticMarkup(createElement(I18nextProvider, { i18n }, createElement(CardSender, { item })));
}

describe("the inbox card's sender", () => {
  it("shows the From header and the envelope it was received from when they differ", () => {
    const html = render("ecf_txed@txed.uscourts.gov", "root@vm");
    expect(html).toContain('<span data-testid="card-from">From ecf_txed@txed.uscourts.gov</span>');
    expect(html).toContain('<span data-testid="card-received-from">received from root@vm</span>');
  });

  it("shows the sender once when the envelope is the From header", () => {
    const html = render("ecf_txed@txed.uscourts.gov", "ECF_TXED@txed.uscourts.gov");
    expect(html).toContain("From ecf_txed@txed.uscourts.gov");
    expect(html).not.toContain("received from");
  });

  it("shows the envelope of a message received before the From header was kept, and nothing for an upload without one", () => {
    expect(render("", "root@vm")).toContain("From root@vm");
    expect(render("", "root@vm")).not.toContain("received from");
    expect(render("", "")).toBe("");
  });

  it("shows the From header of an upload, which has no envelope", () => {
    const html = render("sikeda@lawfirm.test", "");
    expect(html).toContain("From sikeda@lawfirm.test");
    expect(html).not.toContain("received from");
  });
});
