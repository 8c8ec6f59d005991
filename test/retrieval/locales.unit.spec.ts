import { describe, expect, it } from "vitest";
import { asksAboutTranslations, languageOf, localeFiles, namedLocaleFiles, translationsFor } from "../../src/retrieval/locales.ts";

const LOCALES = ["en", "sv", "es", "es-do", "es-us", "de", "fr", "lv", "lv_LV", "zgh", "ku"];

describe("a project's translations", () => {
  it("names a locale tag's language from the platform's locale data, and no other name", () => {
    expect(languageOf("sv")).toBe("swedish");
    expect(languageOf("es_DO")).toBe("spanish");
    expect(languageOf("sr-Latn-ME")).toBe("serbian");
    expect(languageOf("zgh")).toBe("standard moroccan tamazight");
    for (const stem of ["fs", "db", "ui", "index", "utils", "x", "constant"]) expect(languageOf(stem)).toBeNull();
  });

  it("finds a folder of files named by locale, and a folder of folders named by locale", () => {
    const paths = [
      ...LOCALES.map((l) => `src/locale/${l}.js`),
      "src/locale/index.d.ts",
      "src/index.js",
      "src/utils.js",
      ...["en", "de", "fr", "it", "ja", "pt_BR"].map((l) => `app/_locales/${l}/messages.json`),
      ...["en", "de", "fr", "ja", "ko"].map((l) => `Resources/${l}.lproj/Localizable.strings`),
    ];
    const found = localeFiles(paths);
    expect([...found.keys()].filter((p) => p.startsWith("src/")).sort()).toEqual(LOCALES.map((l) => `src/locale/${l}.js`).sort());
    expect(found.get("src/locale/es-do.js")).toEqual({ tag: "es-do", language: "spanish" });
    expect(found.get("app/_locales/pt_BR/messages.json")).toEqual({ tag: "pt_BR", language: "portuguese" });
    expect(found.get("Resources/ja.lproj/Localizable.strings")).toEqual({ tag: "ja", language: "japanese" });
  });

  it("counts a collection's locales the locale data does not name, and variants, among its files", () => {
    const found = localeFiles(["en", "sv", "de", "fr", "it", "es", "lv", "vi", "zh", "ja", "ko", "tzl", "nhn_MX", "tt_RU@iqtelif"].map((t) => `src/Lang/${t}.php`));
    expect(found.size).toBe(14);
    expect(found.get("src/Lang/tzl.php")).toEqual({ tag: "tzl", language: null });
    expect(found.get("src/Lang/tt_RU@iqtelif.php")?.language).toBe("tatar");
  });

  it("takes no folder for one whose few short names happen to be language codes, nor a translated manual", () => {
    // `io` is Ido and `os` Ossetic, but three of six names are no locale's.
    expect(localeFiles(["lib/io.c", "lib/os.c", "lib/is.c", "lib/fs.c", "lib/net.c", "lib/db.c"]).size).toBe(0);
    expect(localeFiles(["src/a.js", "src/b.js"]).size).toBe(0);
    expect(localeFiles(["en", "de", "fr", "it", "ja", "ko"].map((l) => `docs/${l}/guide.md`)).size).toBe(0);
    // Modules named by country code (a tax-number library's `stdnum/de/`, `stdnum/br/`): codes of languages
    // too, but no English among them.
    expect(localeFiles(["at", "be", "bg", "br", "ca", "de", "es", "fi", "fr", "it", "nl", "pl", "pt", "ru"].map((c) => `stdnum/${c}/vat.py`)).size).toBe(0);
    // Gettext catalogs are translations without an English one: the source language has none.
    expect(localeFiles(["de", "fr", "it", "ja", "ko", "sv"].map((l) => `po/${l}.po`)).size).toBe(6);
    // ...and a folder per locale whose files lie deeper (Django's `locale/de/LC_MESSAGES/django.po`).
    const nested = localeFiles(["de", "fr", "it", "ja", "ko", "sv"].map((l) => `app/locale/${l}/LC_MESSAGES/django.po`));
    expect(nested.get("app/locale/sv/LC_MESSAGES/django.po")).toEqual({ tag: "sv", language: "swedish" });
  });

  it("reads a language named in words, or a tag quoted as code, as naming its files", () => {
    const files = localeFiles(LOCALES.map((l) => `src/locale/${l}.js`));
    const said = (q: string) => namedLocaleFiles(q.toLowerCase().replace(/\s+/g, " "), files).sort();
    expect(said("Spanish days and months should be lowercase")).toEqual(["src/locale/es-do.js", "src/locale/es-us.js", "src/locale/es.js"]);
    expect(said("Shorten Latvian months: Feb, Mar")).toEqual(["src/locale/lv.js", "src/locale/lv_LV.js"]);
    expect(said("Standard Moroccan Tamazight year translation")).toEqual(["src/locale/zgh.js"]);
    expect(said("dayjs().locale('de').format('MMMM') prints the wrong month")).toEqual(["src/locale/de.js"]);
    // Words inside longer words are not the name (`Swedishness`), nor is an unquoted tag (`de` in prose).
    expect(said("Swedishness of the de facto month names")).toEqual([]);
  });

  it("demotes the translations a query does not ask for, and none when its words ask about translations", () => {
    const files = new Map([["repo\u0000main", [...LOCALES.map((l) => `src/locale/${l}.js`), "src/utils.js"]]]);
    const months = translationsFor(files, "how are the months between two dates counted?", ["months", "dates", "counted"]);
    expect(months.named).toEqual([]);
    expect(months.unasked("repo\u0000main", "src/locale/sv.js")).toBe(true);
    expect(months.unasked("repo\u0000main", "src/utils.js")).toBe(false);
    const swedish = translationsFor(files, "ordinal formatting in swedish", ["ordinal", "formatting", "swedish"]);
    expect(swedish.named).toEqual([{ target: "repo\u0000main", path: "src/locale/sv.js", share: 1 }]);
    expect(swedish.unasked("repo\u0000main", "src/locale/sv.js")).toBe(false);
    expect(swedish.unasked("repo\u0000main", "src/locale/de.js")).toBe(true);
    // A locale kept as a folder of files is one locale: each of its files takes the whole share.
    const folders = new Map([["repo\u0000main", ["en-US", "sv", "hu", "de", "fr", "it"].flatMap((l) => [`src/locale/${l}/index.js`, `src/locale/${l}/_lib/localize/index.js`])]]);
    const hungarian = translationsFor(folders, "fix the distance strings in the hungarian locale", ["fix", "distance", "strings", "hungarian"]);
    expect(hungarian.named.map((n) => [n.path, n.share]).sort()).toEqual([["src/locale/hu/_lib/localize/index.js", 1], ["src/locale/hu/index.js", 1]]);
    expect(asksAboutTranslations(["found", "6", "locales", "that", "throw"])).toBe(true);
    expect(translationsFor(files, "found 6 locales that throw", ["found", "locales", "throw"]).unasked("repo\u0000main", "src/locale/de.js")).toBe(false);
  });
});
