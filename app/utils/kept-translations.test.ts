import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import { keepTranslations } from "./kept-translations.server";

const resources = {
  en: {
    common: { hello: "Hello", welcome: "Welcome, {{name}}", notices_one: "{{count}} notice", notices_other: "{{count}} notices", list: { a: "A", b: "B" } },
    other: { hello: "Hi" },
  },
};

async function instance(keep: boolean) {
  const i18n = createInstance();
  await i18n.init({ lng: "en", ns: ["common", "other"], defaultNS: "common", resources, interpolation: { escapeValue: false } });
  if (keep) keepTranslations(i18n);
  return i18n;
}

describe("kept translations", () => {
  it("answer what i18next answers, for plain keys, values, plurals, namespaces and defaults", async () => {
    const plain = await instance(false);
    const kept = await instance(true);
    const asks: [string, Record<string, unknown>?][] = [
      ["hello"],
      ["other:hello"],
      ["welcome", { name: "Avery" }],
      ["welcome", { name: "Blake" }],
      ["notices", { count: 1 }],
      ["notices", { count: 7 }],
      ["missing.key", { defaultValue: "stayed" }],
      ["welcome", { replace: { name: "Casey" } }],
    ];
    for (let round = 0; round < 2; round++)
      for (const [key, options] of asks) {
        expect(kept.getFixedT("en", "common")(key, options)).toBe(plain.getFixedT("en", "common")(key, options));
        expect(kept.getFixedT("en", "other")(key, options)).toBe(plain.getFixedT("en", "other")(key, options));
      }
    expect(kept.getFixedT("en", "common")("welcome", { name: "Blake" })).toBe("Welcome, Blake");
    expect(kept.getFixedT("en", "common")("notices", { count: 7 })).toBe("7 notices");
  });

  it("keeps what react-i18next asks for (a language of null), and answers it again without i18next", async () => {
    const kept = await instance(true);
    const t = kept.getFixedT(null, "common");
    expect(t("welcome", { name: "Avery" })).toBe("Welcome, Avery");
    const { translator } = kept as unknown as { translator: { translate: (...args: unknown[]) => unknown } };
    const translate = translator.translate.bind(translator);
    let asked = 0;
    translator.translate = (...args: unknown[]) => {
      asked++;
      return translate(...args);
    };
    expect(t("welcome", { name: "Avery" })).toBe("Welcome, Avery");
    expect(t("hello")).toBe("Hello");
    expect(t("hello")).toBe("Hello");
    expect(asked).toBe(1);
  });

  it("never hands the same object to two readers", async () => {
    const kept = await instance(true);
    const t = kept.getFixedT("en", "common");
    const first = t("list", { returnObjects: true }) as Record<string, string>;
    first.a = "changed";
    expect((t("list", { returnObjects: true }) as Record<string, string>).a).toBe("A");
  });
});
