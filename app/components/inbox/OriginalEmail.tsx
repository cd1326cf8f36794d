import { Anchor, Code, Text } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import type { OriginalEmail as Original } from "../../utils/inbox.server";
import { sandboxedHtml } from "../../utils/sandboxed-html";
import { CardSection } from "./CardSection";

/** The message as received: its HTML in a frame that runs no script and loads nothing, else its text; the source; the .eml. */
export function OriginalEmail({ itemId, email }: { itemId: string; email: Original | null }) {
  const { t } = useTranslation("inbox");
  return (
    <CardSection title={t("card.originalEmail")} testId="card-original">
      {email?.html ? (
        <iframe
          title={t("card.originalEmail")}
          sandbox=""
          srcDoc={sandboxedHtml(email.html)}
          style={{ width: "100%", minHeight: 360, border: "1px solid var(--mantine-color-default-border)", background: "#fff" }}
        />
      ) : (
        <Code block>{email?.text}</Code>
      )}
      <details>
        <summary>{t("card.rawSource")}</summary>
        {email?.truncated ? <Text size="xs">{t("card.rawTruncated")}</Text> : null}
        <Code block style={{ whiteSpace: "pre-wrap", maxHeight: 480, overflow: "auto" }} data-testid="card-raw">
          {email?.source}
        </Code>
      </details>
      <Anchor href={`/load-notice/${itemId}`} size="sm">
        {t("card.downloadEml")}
      </Anchor>
    </CardSection>
  );
}
